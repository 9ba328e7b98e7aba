// Audio: response_format (default json; one of json, text, srt, verbose_json, vtt); "The other
// response_format values (text, srt, verbose_json, vtt) give the corresponding formats."

import type { Exchange } from '../../transport/types.ts';
import { notExercised, type Finding, type PlannedRequestView, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { isJsonMediaType } from '../../util/content-type.ts';
import { validateSrt, validateVtt, type SubtitleReport } from './subtitles.ts';

export const AUDIO_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export function requestedAudioFormat(request: PlannedRequestView): AudioFormat | undefined {
  const raw = request.multipartFields?.response_format ?? (isRecord(request.json) ? request.json.response_format : undefined) ?? 'json';
  return (AUDIO_FORMATS as readonly unknown[]).includes(raw) ? (raw as AudioFormat) : undefined;
}

function notASuccess(exchange: Exchange): string | undefined {
  const r = exchange.response;
  if (!r || r.status < 200 || r.status >= 300) return `not a success response (status ${r?.status ?? 'none'})`;
  if (r.text === undefined) return 'the body is not text';
  return undefined;
}

function forFormat(format: AudioFormat) {
  return (ex: Exchange, ctx: { request: PlannedRequestView }): string | undefined =>
    notASuccess(ex) ?? (requestedAudioFormat(ctx.request) === format ? undefined : `response_format is not ${format}`);
}

export const audioTextFormat: ResponseCheck = {
  kind: 'response',
  name: 'audio_text_format',
  requirements: ['AUDIO-FORMAT-TEXT'],
  severity: 'must',
  summary: 'response_format text gives the transcript as plain text, not a JSON object',
  skipWhen: forFormat('text'),
  run: (ex) => {
    const json = ex.response!.json;
    // A transcript may itself be in quotes, so a JSON string counts only when the server also labels it JSON.
    const quotedAsJson = typeof json === 'string' && isJsonMediaType(ex.response!.headers['content-type']);
    return isRecord(json) || Array.isArray(json) || quotedAsJson
      ? [{ pointer: '', message: 'response_format text was requested, but the body is JSON', expected: 'plain text', actual: ex.response!.text!.slice(0, 120) }]
      : [];
  },
};

/** Default (json) form: `{text: string}`; verbose_json is JSON too and carries the text (catalogue). */
export const audioJsonHasText: ResponseCheck = {
  kind: 'response',
  name: 'audio_json_has_text',
  requirements: ['AUDIO-FORMAT-DEFAULT-JSON', 'RES-TRANSCRIPTION-JSON', 'AUDIO-FORMAT-VERBOSE-JSON'],
  severity: 'must',
  summary: 'response_format json (the default) and verbose_json give a JSON object with text (string)',
  skipWhen: (ex, ctx) => {
    const format = requestedAudioFormat(ctx.request);
    return notASuccess(ex) ?? (format === 'json' || format === 'verbose_json' ? undefined : `response_format is ${format ?? 'not listed'}, not json or verbose_json`);
  },
  run: (ex, ctx) => {
    const json = ex.response!.json;
    const format = requestedAudioFormat(ctx.request)!;
    if (!isRecord(json)) return [{ pointer: '', message: `response_format ${format} gives a JSON object`, expected: '{"text": string}', actual: ex.response!.text!.slice(0, 120) }];
    return typeof json.text === 'string' ? [] : [{ pointer: '/text', message: `the ${format} body has no text string`, expected: 'a string', actual: json.text ?? 'absent' }];
  },
};

/** Seconds a segment may end after the stated duration: decoders round, and Whisper's last timestamp may overshoot. */
const SEGMENT_END_SLACK_S = 1;

const words = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** A verbose_json's segments agree with themselves and with the result: in order, within the duration, and together the text. */
function segmentFindings(json: Record<string, unknown>, segments: unknown[]): Finding[] {
  const findings: Finding[] = [];
  const duration = typeof json.duration === 'number' ? json.duration : undefined;
  let previousStart = -Infinity;
  segments.forEach((seg, i) => {
    if (!isRecord(seg) || typeof seg.id !== 'number' || typeof seg.start !== 'number' || typeof seg.end !== 'number' || typeof seg.text !== 'string') {
      findings.push({ pointer: `/segments/${i}`, message: `segment ${i} lacks id, start, end or text`, expected: '{id, start, end, text}', actual: seg });
      return;
    }
    if (seg.start < 0 || seg.end < seg.start) findings.push({ pointer: `/segments/${i}`, message: `segment ${i} runs from ${seg.start} s to ${seg.end} s`, expected: '0 ≤ start ≤ end', actual: { start: seg.start, end: seg.end } });
    if (seg.start < previousStart) findings.push({ pointer: `/segments/${i}/start`, message: `segment ${i} starts at ${seg.start} s, before the segment ahead of it (${previousStart} s)`, expected: `≥ ${previousStart}`, actual: seg.start });
    if (duration !== undefined && seg.end > duration + SEGMENT_END_SLACK_S) findings.push({ pointer: `/segments/${i}/end`, message: `segment ${i} ends at ${seg.end} s, after the audio's duration of ${duration} s`, expected: `≤ ${duration} (+${SEGMENT_END_SLACK_S} s)`, actual: seg.end });
    previousStart = seg.start;
  });
  const texts = segments.map((seg) => (isRecord(seg) && typeof seg.text === 'string' ? seg.text : undefined));
  if (typeof json.text === 'string' && texts.length > 0 && texts.every((t) => t !== undefined)) {
    const joined = words(texts.join(' '));
    if (words(json.text) !== joined) findings.push({ pointer: '/text', message: 'text is not what the segments say, one after the other', expected: joined.slice(0, 200), actual: json.text.slice(0, 200) });
  }
  return findings;
}

/** AUDIO-VERBOSE-JSON-FIELDS (should): what the service's verbose_json carries besides text, and that it agrees with itself. */
export const audioVerboseJsonFields: ResponseCheck = {
  kind: 'response',
  name: 'audio_verbose_json_fields',
  requirements: ['AUDIO-VERBOSE-JSON-FIELDS'],
  severity: 'should',
  summary: 'verbose_json carries task, language, duration and segments (id, start, end, text), as the service writes it, and the segments, in order within the duration, say the text',
  skipWhen: (ex, ctx) => notASuccess(ex) ?? (requestedAudioFormat(ctx.request) === 'verbose_json' ? undefined : 'response_format is not verbose_json'),
  run: (ex) => {
    const json = ex.response!.json;
    if (!isRecord(json)) return [{ pointer: '', message: 'verbose_json is a JSON object', expected: 'an object', actual: (ex.response!.text ?? '').slice(0, 120) }];
    const findings: Finding[] = [];
    const want: Array<[string, string]> = [['task', 'string'], ['language', 'string'], ['duration', 'number']];
    for (const [field, type] of want) {
      if (typeof json[field] !== type) findings.push({ pointer: `/${field}`, message: `verbose_json has no ${field} ${type}`, expected: type, actual: json[field] ?? 'absent' });
    }
    if (typeof json.duration === 'number' && !(json.duration > 0)) findings.push({ pointer: '/duration', message: `duration is ${json.duration} s for audio that was sent`, expected: '> 0 seconds', actual: json.duration });
    if (!Array.isArray(json.segments)) findings.push({ pointer: '/segments', message: 'verbose_json has no segments array', expected: 'an array', actual: json.segments ?? 'absent' });
    else findings.push(...segmentFindings(json, json.segments));
    return findings;
  },
};

function subtitleCheck(name: string, requirement: string, format: AudioFormat, what: string, validate: (body: string) => SubtitleReport): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements: [requirement],
    severity: 'must',
    summary: `response_format ${format} gives well-formed ${what}`,
    skipWhen: forFormat(format),
    run: (ex) => {
      const report = validate(ex.response!.text!);
      const findings = report.problems.slice(0, 10).map((p): Finding => ({ pointer: '', message: `line ${p.line}: ${p.message}`, expected: what, ...(p.actual !== undefined ? { actual: p.actual } : {}) }));
      // No cue at all is well-formed and says nothing: an empty body passes it whatever the audio held.
      if (findings.length === 0 && report.cues === 0) return notExercised(`the ${format} answer holds no cue to judge (audio without speech?)`);
      return findings;
    },
  };
}

export const audioSrtWellFormed = subtitleCheck('audio_srt_well_formed', 'AUDIO-FORMAT-SRT', 'srt', 'SubRip (numbered cues, HH:MM:SS,mmm --> HH:MM:SS,mmm, text)', validateSrt);
export const audioVttWellFormed = subtitleCheck('audio_vtt_well_formed', 'AUDIO-FORMAT-VTT', 'vtt', 'WebVTT (WEBVTT header, [HH:]MM:SS.mmm --> [HH:]MM:SS.mmm cues)', validateVtt);

const CONTENT_TYPES: Record<AudioFormat, RegExp> = {
  json: /^application\/json\b/i,
  verbose_json: /^application\/json\b/i,
  text: /^text\//i,
  srt: /^(text\/|application\/x-subrip\b)/i,
  vtt: /^text\//i,
};

export const audioContentType: ResponseCheck = {
  kind: 'response',
  name: 'audio_content_type',
  requirements: ['AUDIO-FORMAT-CONTENT-TYPE'],
  severity: 'should',
  summary: 'json and verbose_json are served as application/json; text, srt and vtt as text/*',
  skipWhen: (ex, ctx) => notASuccess(ex) ?? (requestedAudioFormat(ctx.request) ? undefined : 'the request names a response_format the spec does not list'),
  run: (ex, ctx) => {
    const format = requestedAudioFormat(ctx.request)!;
    const type = ex.response!.headers['content-type'];
    return type !== undefined && CONTENT_TYPES[format].test(type)
      ? []
      : [{ pointer: '#headers/content-type', message: `response_format ${format} is served with a fitting content type`, expected: format.includes('json') ? 'application/json' : 'text/*', actual: type ?? 'absent' }];
  },
};
