// POST /v1/audio/transcriptions and /v1/audio/translations (multipart).
// The "recognised" text is a deterministic choice of English sentences: one sentence per started
// 5 seconds of audio, picked by a hash of the file bytes. WAV durations come from the RIFF header.
import { createHash } from 'node:crypto';
import { readWavInfo } from '../fixtures/wav.ts';
import type { Ctx } from './context.ts';
import { invalidRequest } from './http-errors.ts';
import { sendBytes } from './http-io.ts';
import { LIMITS } from './limits.ts';
import { resolveModel } from './models.ts';
import { parseMultipart } from './multipart.ts';
import type { UploadedFile } from './multipart.ts';
import { hashParts, seededRandom } from './random.ts';
import { tokenize } from './tokenizer.ts';
import { Fields } from './validate.ts';

export const SENTENCES = [
  'Look at all those chickens.',
  'The quick brown fox jumps over the lazy dog.',
  'Please call me back when you get this message.',
  'The weather is lovely today.',
  'We will meet at the station at noon.',
  'This is a test of the transcription service.',
] as const;

export const SECONDS_PER_SENTENCE = 5;
/** Non-WAV files: duration estimated from size at 128 kbit/s. */
const ASSUMED_BYTES_PER_SECOND = 16000;

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'english', de: 'german', fr: 'french', es: 'spanish', it: 'italian', pt: 'portuguese', nl: 'dutch',
  ja: 'japanese', zh: 'chinese', ko: 'korean', ru: 'russian', pl: 'polish', sv: 'swedish', tr: 'turkish',
};

type Task = 'transcribe' | 'translate';
type AudioFormat = (typeof LIMITS.audioResponseFormats)[number];

interface Segment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number;
  avg_logprob: number;
  compression_ratio: number;
  no_speech_prob: number;
  transient: boolean;
}

export function createTranscription(ctx: Ctx): undefined {
  return handleAudio(ctx, 'transcribe');
}

export function createTranslation(ctx: Ctx): undefined {
  return handleAudio(ctx, 'translate');
}

function handleAudio(ctx: Ctx, task: Task): undefined {
  const form = parseMultipart(ctx.body, ctx.req.headers['content-type']);
  const fields = new Fields(form.fields, true);
  const file = checkAudioFile(ctx, form.files.file);
  const model = fields.string('model', { required: true });
  resolveModel(ctx.app, ctx.caller, model, 'audio', { anyModel: ctx.fault('whisper-2-accepted') });
  if (ctx.fault('audio-prompt-rejected') && fields.string('prompt', { allowEmpty: true }) !== undefined) throw invalidRequest("Unrecognized request argument supplied: prompt", 'prompt');
  fields.string('prompt', { allowEmpty: true });
  const format = fields.oneOf('response_format', LIMITS.audioResponseFormats, ctx.fault('audio-default-format-text') ? 'text' : 'json');
  const temperature =
    fields.number('temperature', { min: LIMITS.audioTemperature.min, max: ctx.fault('audio-temperature-1.5-accepted') ? undefined : LIMITS.audioTemperature.max }) ?? 0;
  const language = task === 'transcribe' ? readLanguage(fields, ctx.fault('audio-language-invalid-accepted')) : undefined;

  const duration = durationOf(file);
  const fileHash = createHash('sha1').update(file.data).digest().readUInt32LE(0);
  const segments = buildSegments(ctx.app.options.seed, fileHash, duration, temperature);
  const text = segments.map((s) => s.text.trim()).join(' ');
  const languageName = task === 'translate' ? 'english' : ((Object.hasOwn(LANGUAGE_NAMES, language ?? 'en') ? LANGUAGE_NAMES[language ?? 'en'] : undefined) ?? language ?? 'english');
  sendTranscript(ctx, format, { task, language: languageName, duration, text, segments });
  return undefined;
}

function checkAudioFile(ctx: Ctx, file: UploadedFile | undefined): UploadedFile {
  if (!file) throw invalidRequest("'file' is a required property", 'file');
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
  const accepted = ctx.fault('audio-wav-only') ? ['wav'] : (LIMITS.audioExtensions as readonly string[]);
  if (!accepted.includes(extension) && !ctx.fault('audio-any-extension-accepted')) {
    throw invalidRequest(`Invalid file format. Supported formats: ${JSON.stringify(LIMITS.audioExtensions)}`, 'file');
  }
  return file;
}

function readLanguage(fields: Fields, anyLanguage: boolean): string | undefined {
  const language = fields.string('language');
  if (language !== undefined && !/^[a-z]{2}$/.test(language) && !anyLanguage) {
    throw invalidRequest(`'${language}' is not a valid ISO-639-1 language code - 'language'`, 'language');
  }
  return language;
}

export function durationOf(file: UploadedFile): number {
  let seconds: number;
  try {
    seconds = readWavInfo(file.data).durationSeconds;
  } catch {
    seconds = file.data.length / ASSUMED_BYTES_PER_SECOND;
  }
  return Math.round(seconds * 100) / 100;
}

function buildSegments(seed: number, fileHash: number, duration: number, temperature: number): Segment[] {
  const count = Math.max(1, Math.ceil(duration / SECONDS_PER_SENTENCE));
  const rng = seededRandom(hashParts(seed, fileHash));
  const round2 = (x: number) => Math.round(x * 100) / 100;
  return Array.from({ length: count }, (_, id) => {
    const sentence = SENTENCES[hashParts(fileHash, id) % SENTENCES.length]!;
    const start = round2((id * duration) / count);
    const end = round2(((id + 1) * duration) / count);
    return {
      id,
      seek: Math.round(start * 100),
      start,
      end,
      text: ' ' + sentence,
      tokens: tokenize(' ' + sentence).map((t) => 50364 + (hashParts(t) % 1000)),
      temperature,
      avg_logprob: -Math.round(rng() * 1e6) / 1e6,
      compression_ratio: Math.round((0.7 + rng()) * 1e6) / 1e6,
      no_speech_prob: Math.round(rng() * 0.05 * 1e6) / 1e6,
      transient: false,
    };
  });
}

interface Transcript {
  task: Task;
  language: string;
  duration: number;
  text: string;
  segments: Segment[];
}

/** 3723.5 -> "01:02:03,500" (SRT) or "01:02:03.500" (VTT). */
export function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

function sendTranscript(ctx: Ctx, format: AudioFormat, t: Transcript): void {
  const plain = 'text/plain; charset=utf-8';
  switch (format) {
    case 'json':
      sendBytes(ctx.res, 200, 'application/json', JSON.stringify({ text: t.text }));
      return;
    case 'verbose_json': {
      const body: Record<string, unknown> = ctx.fault('verbose-json-missing-segments')
        ? { task: t.task, language: t.language, duration: t.duration, text: t.text }
        : { task: t.task, language: t.language, duration: t.duration, segments: t.segments, text: t.text };
      if (ctx.fault('verbose-json-missing-language')) delete body.language;
      if (ctx.fault('verbose-json-missing-duration')) delete body.duration;
      if (ctx.fault('verbose-json-text-not-segments')) body.text = 'Thank you for watching.';
      if (ctx.fault('verbose-json-segment-times-reversed') && body.segments) body.segments = t.segments.map((seg) => ({ ...seg, start: seg.end, end: seg.start }));
      sendBytes(ctx.res, 200, 'application/json', JSON.stringify(body));
      return;
    }
    case 'text':
      if (ctx.fault('audio-text-format-json')) sendBytes(ctx.res, 200, 'application/json', JSON.stringify({ text: t.text }));
      else sendBytes(ctx.res, 200, plain, t.text + '\n');
      return;
    case 'srt': {
      const sep = ctx.fault('srt-malformed-timestamps') ? '.' : ',';
      const cues = t.segments.map((s, i) => `${i + 1}\n${timestamp(s.start, sep)} --> ${timestamp(s.end, sep)}\n${s.text.trim()}\n`);
      sendBytes(ctx.res, 200, ctx.fault('srt-json-content-type') ? 'application/json' : plain, cues.join('\n') + '\n');
      return;
    }
    case 'vtt': {
      if (ctx.fault('vtt-returns-srt')) {
        const cues = t.segments.map((s, i) => `${i + 1}\n${timestamp(s.start, ',')} --> ${timestamp(s.end, ',')}\n${s.text.trim()}\n`);
        sendBytes(ctx.res, 200, plain, cues.join('\n') + '\n');
        return;
      }
      const header = ctx.fault('vtt-missing-header') ? '' : 'WEBVTT\n\n';
      const cues = t.segments.map((s) => `${timestamp(s.start, '.')} --> ${timestamp(s.end, '.')}\n${s.text.trim()}\n\n`);
      sendBytes(ctx.res, 200, plain, header + cues.join(''));
      return;
    }
  }
}
