// Audio checks and the SubRip / WebVTT validators: passing and failing inputs for each rule.
import { describe, expect, it } from 'vitest';
import { describeCheckTable, type TableCase } from './table.ts';
import { AUDIO_CHECKS } from '../../src/checks/audio/index.ts';
import { validateSrt, validateVtt } from '../../src/checks/audio/subtitles.ts';
import type { PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange } from '../../src/transport/types.ts';


function exchangeOf(text: string, opts: { status?: number; contentType?: string } = {}): Exchange {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/audio/transcriptions', headers: {}, body: { kind: 'none' } },
    response: { status: opts.status ?? 200, headers: { 'content-type': opts.contentType ?? 'text/plain; charset=utf-8' }, text, json, truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}
const req = (fields: Record<string, string>): PlannedRequestView => ({ method: 'POST', path: '/v1/audio/transcriptions', query: {}, multipartFields: { model: 'whisper-1', ...fields }, stream: false });

const SRT = '1\n00:00:00,000 --> 00:00:02,500\nLook at all those chickens.\n\n2\n00:00:02,500 --> 00:00:05,000\nSecond line\nwrapped\n';
const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:06.000\nHello there.\n\n00:06.000 --> 00:09.920 align:start\nSecond.\n\n';
const JSON_TEXT = JSON.stringify({ text: 'Hello there.' });
const VERBOSE = JSON.stringify({ task: 'transcribe', language: 'english', duration: 1, segments: [], text: 'Hi' });

const cases: TableCase[] = [
  { check: 'audio_json_has_text', title: 'default json', request: req({}), exchange: exchangeOf(JSON_TEXT, { contentType: 'application/json' }), outcome: 'pass' },
  { check: 'audio_json_has_text', title: 'verbose_json', request: req({ response_format: 'verbose_json' }), exchange: exchangeOf(VERBOSE, { contentType: 'application/json' }), outcome: 'pass' },
  { check: 'audio_verbose_json_fields', title: 'the service fields', request: req({ response_format: 'verbose_json' }), exchange: exchangeOf(JSON.stringify({ task: 'transcribe', language: 'english', duration: 1, text: 'Hi', segments: [{ id: 0, seek: 0, start: 0, end: 1, text: 'Hi' }] }), { contentType: 'application/json' }), outcome: 'pass' },
  { check: 'audio_verbose_json_fields', title: 'no segments', request: req({ response_format: 'verbose_json' }), exchange: exchangeOf(JSON.stringify({ task: 'transcribe', language: 'english', duration: 1, text: 'Hi' }), { contentType: 'application/json' }), outcome: 'fail' },
  ...(() => {
    const verbose = (patch: Record<string, unknown>) => exchangeOf(JSON.stringify({ task: 'transcribe', language: 'english', duration: 2.78, text: 'Look at all those chickens! Two.', segments: [{ id: 0, start: 0, end: 2, text: ' Look at all those chickens!' }, { id: 1, start: 2, end: 3.1, text: ' Two.' }], ...patch }), { contentType: 'application/json' });
    const seg = (a: Record<string, unknown>, b: Record<string, unknown>) => ({ segments: [{ id: 0, start: 0, end: 2, text: ' Look at all those chickens!', ...a }, { id: 1, start: 2, end: 3.1, text: ' Two.', ...b }] });
    return [
      { check: 'audio_verbose_json_fields', title: 'segments that say the text, the last ending a little after the duration (as Whisper rounds)', request: req({ response_format: 'verbose_json' }), exchange: verbose({}), outcome: 'pass' as const },
      { check: 'audio_verbose_json_fields', title: 'no speech: no segments and no text', request: req({ response_format: 'verbose_json' }), exchange: verbose({ text: '', segments: [] }), outcome: 'pass' as const },
      { check: 'audio_verbose_json_fields', title: 'a text the segments do not say', request: req({ response_format: 'verbose_json' }), exchange: verbose({ text: 'Thank you for watching.' }), outcome: 'fail' as const },
      { check: 'audio_verbose_json_fields', title: 'a segment that ends before it starts', request: req({ response_format: 'verbose_json' }), exchange: verbose(seg({ start: 2, end: 0 }, {})), outcome: 'fail' as const },
      { check: 'audio_verbose_json_fields', title: 'segments out of order', request: req({ response_format: 'verbose_json' }), exchange: verbose(seg({ start: 2, end: 3 }, { start: 0, end: 2 })), outcome: 'fail' as const },
      { check: 'audio_verbose_json_fields', title: 'a segment far past the duration', request: req({ response_format: 'verbose_json' }), exchange: verbose(seg({}, { end: 9 })), outcome: 'fail' as const },
      { check: 'audio_verbose_json_fields', title: 'a duration of 0 s', request: req({ response_format: 'verbose_json' }), exchange: verbose({ duration: 0 }), outcome: 'fail' as const },
    ];
  })(),
  { check: 'audio_verbose_json_fields', title: 'json, not verbose', request: req({}), exchange: exchangeOf(JSON_TEXT, { contentType: 'application/json' }), outcome: 'skip' },
  { check: 'audio_json_has_text', title: 'default json answered as plain text', request: req({}), exchange: exchangeOf('Hello there.'), outcome: 'fail' },
  { check: 'audio_json_has_text', title: 'json without text', request: req({ response_format: 'json' }), exchange: exchangeOf('{"transcript":"x"}', { contentType: 'application/json' }), outcome: 'fail' },
  { check: 'audio_json_has_text', title: 'srt', request: req({ response_format: 'srt' }), exchange: exchangeOf(SRT), outcome: 'skip' },
  { check: 'audio_text_format', title: 'plain text', request: req({ response_format: 'text' }), exchange: exchangeOf('Look at all those chickens.\n'), outcome: 'pass' },
  { check: 'audio_text_format', title: 'JSON-wrapped', request: req({ response_format: 'text' }), exchange: exchangeOf(JSON_TEXT, { contentType: 'application/json' }), outcome: 'fail' },
  { check: 'audio_text_format', title: 'a JSON string labelled JSON', request: req({ response_format: 'text' }), exchange: exchangeOf(JSON.stringify('Hello there.'), { contentType: 'application/json' }), outcome: 'fail' },
  { check: 'audio_text_format', title: 'a quoted transcript as text/plain', request: req({ response_format: 'text' }), exchange: exchangeOf('"Hello there."'), outcome: 'pass' },
  { check: 'audio_text_format', title: 'another format', request: req({ response_format: 'json' }), exchange: exchangeOf(JSON_TEXT), outcome: 'skip' },
  { check: 'audio_srt_well_formed', title: 'SubRip', request: req({ response_format: 'srt' }), exchange: exchangeOf(SRT), outcome: 'pass' },
  { check: 'audio_srt_well_formed', title: 'dot separators', request: req({ response_format: 'srt' }), exchange: exchangeOf(SRT.replace(/,(\d{3})/g, '.$1')), outcome: 'fail' },
  { check: 'audio_srt_well_formed', title: 'JSON', request: req({ response_format: 'srt' }), exchange: exchangeOf(JSON_TEXT), outcome: 'fail' },
  { check: 'audio_srt_well_formed', title: 'error response', request: req({ response_format: 'srt' }), exchange: exchangeOf('{"error":{}}', { status: 400 }), outcome: 'skip' },
  { check: 'audio_vtt_well_formed', title: 'WebVTT', request: req({ response_format: 'vtt' }), exchange: exchangeOf(VTT), outcome: 'pass' },
  { check: 'audio_vtt_well_formed', title: 'no header', request: req({ response_format: 'vtt' }), exchange: exchangeOf(VTT.replace('WEBVTT\n\n', '')), outcome: 'fail' },
  { check: 'audio_vtt_well_formed', title: 'comma separators', request: req({ response_format: 'vtt' }), exchange: exchangeOf(VTT.replace('00:00:06.000', '00:00:06,000')), outcome: 'fail' },
  { check: 'audio_content_type', title: 'json default as application/json', request: req({}), exchange: exchangeOf(JSON_TEXT, { contentType: 'application/json' }), outcome: 'pass' },
  { check: 'audio_content_type', title: 'json as text/plain', request: req({}), exchange: exchangeOf(JSON_TEXT), outcome: 'fail' },
  { check: 'audio_content_type', title: 'vtt as text/plain', request: req({ response_format: 'vtt' }), exchange: exchangeOf(VTT), outcome: 'pass' },
  { check: 'audio_content_type', title: 'srt as application/json', request: req({ response_format: 'srt' }), exchange: exchangeOf(SRT, { contentType: 'application/json' }), outcome: 'fail' },
  { check: 'audio_translation_language_english', title: 'english', request: req({ response_format: 'verbose_json' }), exchange: exchangeOf('{"task":"translate","language":"english","text":"hi"}'), outcome: 'pass' },
  { check: 'audio_translation_language_english', title: 'german', request: req({ response_format: 'verbose_json' }), exchange: exchangeOf('{"task":"translate","language":"german","text":"hallo"}'), outcome: 'fail' },
  { check: 'audio_invalid_language_rejected', title: '400', request: req({ language: 'english' }), exchange: exchangeOf('{"error":{}}', { status: 400 }), outcome: 'pass' },
  { check: 'audio_invalid_language_rejected', title: '200', request: req({ language: 'english' }), exchange: exchangeOf(JSON_TEXT), outcome: 'fail' },
  { check: 'audio_invalid_language_rejected', title: '500', request: req({ language: 'english' }), exchange: exchangeOf('oops', { status: 500 }), outcome: 'fail' },
];

describeCheckTable('audio', AUDIO_CHECKS, cases);

describe('SubRip validator', () => {
  it.each([
    ['two cues', SRT, 2, 0],
    ['CRLF and BOM', '\uFEFF' + SRT.replace(/\n/g, '\r\n'), 2, 0],
    ['empty body (no cues)', '', 0, 0],
    ['hours above 99', '1\n100:00:00,000 --> 100:00:01,000\nx\n', 1, 0],
    ['numbering starts at 2', SRT.replace('1\n', '2\n'), 2, 1],
    ['missing number', '00:00:00,000 --> 00:00:01,000\nx\n', 1, 1],
    ['timing with one-digit hour', '1\n0:00:00,000 --> 0:00:01,000\nx\n', 1, 1],
    ['seconds 60', '1\n00:00:60,000 --> 00:01:00,000\nx\n', 1, 1],
    ['ends before it starts', '1\n00:00:02,000 --> 00:00:01,000\nx\n', 1, 1],
    ['no text', '1\n00:00:00,000 --> 00:00:01,000\n', 1, 1],
  ])('%s', (_title, body, cues, problems) => {
    const r = validateSrt(body);
    expect(r.cues).toBe(cues);
    expect(r.problems.length, JSON.stringify(r.problems)).toBe(problems);
  });
});

describe('WebVTT validator', () => {
  it.each([
    ['two cues, hours optional, settings', VTT, 2, 0],
    ['header text and a NOTE', 'WEBVTT - transcript\nKind: captions\n\nNOTE made by a test\n\n1\n00:01.000 --> 00:02.000\nhi\n', 1, 0],
    ['header only (no cues)', 'WEBVTT\n', 0, 0],
    ['CRLF and BOM', '\uFEFF' + VTT.replace(/\n/g, '\r\n'), 2, 0],
    ['identifier then timing', 'WEBVTT\n\ncue-1\n00:00:00.000 --> 00:00:01.000\nx\n', 1, 0],
    ['missing header', '00:00:00.000 --> 00:00:01.000\nx\n', 0, 1],
    ['WEBVTTX header', 'WEBVTTX\n\n00:00.000 --> 00:01.000\nx\n', 0, 1],
    ['comma milliseconds', 'WEBVTT\n\n00:00:00,000 --> 00:00:01,000\nx\n', 0, 1],
    ['text block without timing', 'WEBVTT\n\njust text\nmore text\n', 0, 1],
    ['ends before it starts', 'WEBVTT\n\n00:02.000 --> 00:01.000\nx\n', 1, 1],
  ])('%s', (_title, body, cues, problems) => {
    const r = validateVtt(body);
    expect(r.cues).toBe(cues);
    expect(r.problems.length, JSON.stringify(r.problems)).toBe(problems);
  });
});
