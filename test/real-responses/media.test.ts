/**
 * No false positives: every response-only check of the media areas (images, embeddings, audio,
 * moderations) runs against each recording of the real service in ../shared/real-responses (read at
 * test time, never copied). All must pass. A check that depends on something the spec does not cover
 * is skipped for that file with a reason (SKIPS below), and so is a check whose skipWhen says it does
 * not apply (e.g. image URLs that were not fetched); each skip is printed. Where a skip exists because
 * the recording contradicts the spec or comes from a later version, the test also proves that the
 * check really fails there (`fails: true`), so the skip names the contradiction and cannot go stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import { IMAGES_CHECKS } from '../../src/checks/images/index.ts';
import { EMBEDDINGS_CHECKS } from '../../src/checks/embeddings/index.ts';
import { AUDIO_CHECKS } from '../../src/checks/audio/index.ts';
import { MODERATIONS_CHECKS } from '../../src/checks/moderations/index.ts';
import { findingsOf, type Check, type CheckContext, type PlannedRequestView, type ResponseCheck } from '../../src/checks/types.ts';
import type { Exchange } from '../../src/transport/types.ts';
import { sharedPresent } from '../shared.ts';

const corpusDir = path.resolve(repoRoot, '../shared/real-responses');
const schemas = SchemaRegistry.load();
const profile = buildProfile({}, { baseUrl: 'https://api.example' });

interface Recording {
  request: { method: string; path: string; headers: Record<string, unknown>; body: unknown };
  response: { status: number; headers: Record<string, unknown>; body: unknown };
  tier: string;
  note?: string;
}

/** Checks that are not about one response alone: they need an earlier case or a rejected request. */
const NOT_RESPONSE_ONLY: Record<string, string> = {
  moderation_model_same_as: 'compares with an earlier case of the suite (needs history)',
  audio_invalid_language_rejected: 'applies only to a request with an invalid language (none recorded)',
};

/** skipWhen reasons that only say the check is about another kind of response. */
const NOT_APPLICABLE = /^(response_format is |no data item carries )/;

/** Per-operation image checks apply to their own endpoint only. */
const IMAGE_OPERATION_PATH: Record<string, string> = { generation: '/v1/images/generations', edit: '/v1/images/edits', variation: '/v1/images/variations' };

const FOLDERS: Record<string, readonly Check[]> = {
  images: IMAGES_CHECKS,
  embeddings: EMBEDDINGS_CHECKS,
  audio: AUDIO_CHECKS,
  moderations: MODERATIONS_CHECKS,
};

interface Skip {
  file: string;
  /** Check names, or '*' for every check of the file. */
  checks: string[] | '*';
  reason: string;
  /** The check fails on this recording (a later version or a contradiction of the spec): proven below. */
  fails?: boolean;
}

const ENCODING_BASE64 = 'request sent encoding_format=base64 (not a spec parameter), so embedding is a base64 string, not an array of 1536 floats';

const SKIPS: Skip[] = [
  ...['001-single-string', '002-string-array', '003-token-array', '004-array-of-token-arrays', '005-autogpt-array'].map(
    (n): Skip => ({ file: `embeddings/${n}.json`, checks: ['embedding_ada_002_has_1536_floats'], reason: ENCODING_BASE64, fails: true }),
  ),
  { file: 'embeddings/006-legacy-engines-path.json', checks: '*', reason: 'POST /v1/engines/{id}/embeddings is not an endpoint of the spec' },
  { file: 'embeddings/docs-01-createEmbedding.json', checks: '*', reason: 'documentation example with placeholders ("...."), not a JSON body' },
  ...['004-aug2023', '005-nov2023'].map(
    (n): Skip => ({
      file: `moderations/${n}.json`,
      checks: ['moderation_categories_no_extra'],
      reason: 'later model version (text-moderation-005/006) returns 11 categories, adding harassment, harassment/threatening, self-harm/intent, self-harm/instructions: the seven are all there (the must holds); beyond them is the should',
      fails: true,
    }),
  ),
  ...['docs-02-createImageEdit', 'docs-03-createImageVariation'].map(
    (n): Skip => ({ file: `images/${n}.json`, checks: ['image_edit_count_is_n', 'image_variation_count_is_n'], reason: 'documentation example without a request body, so the requested n is unknown' }),
  ),
  ...['docs-01-createImage', 'docs-02-createImageEdit', 'docs-03-createImageVariation'].map(
    (n): Skip => ({ file: `images/${n}.json`, checks: ['image_url_fetchable'], reason: 'documentation example: url is the placeholder "https://..."' }),
  ),
  ...['docs-01-createTranscription', 'docs-02-createTranslation'].map(
    (n): Skip => ({ file: `audio/${n}.json`, checks: ['audio_content_type'], reason: 'documentation example: no response headers' }),
  ),
];

function header(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v.map(String).join(', ') : String(v);
}

function exchangeOf(rec: Recording): Exchange {
  const body = rec.response.body;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  if (typeof body === 'string') {
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
  } else {
    json = body;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec.response.headers ?? {})) {
    const h = header(v);
    if (h !== undefined) headers[k.toLowerCase()] = h;
  }
  return {
    request: { method: rec.request.method as Exchange['request']['method'], url: `https://api.example${rec.request.path}`, headers: {}, body: { kind: 'none' } },
    response: { status: rec.response.status, headers, text, json, truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 0 },
  };
}

function requestViewOf(rec: Recording): PlannedRequestView {
  const body = rec.request.body;
  const multipart = body !== null && typeof body === 'object' && 'multipart_form_data' in body
    ? (body as { multipart_form_data: { fields: Record<string, unknown> } }).multipart_form_data
    : undefined;
  const view: PlannedRequestView = { method: rec.request.method, path: rec.request.path, query: {}, stream: false };
  if (multipart) view.multipartFields = Object.fromEntries(Object.entries(multipart.fields ?? {}).map(([k, v]) => [k, String(v)]));
  else if (body !== null && body !== undefined) view.json = body;
  return view;
}

function applies(check: Check, rec: Recording): string | undefined {
  if (NOT_RESPONSE_ONLY[check.name]) return NOT_RESPONSE_ONLY[check.name];
  const op = /^image_(generation|edit|variation)_/.exec(check.name)?.[1];
  if (op && rec.request.path !== IMAGE_OPERATION_PATH[op]) return `applies to ${IMAGE_OPERATION_PATH[op]} only`;
  return undefined;
}

const present = sharedPresent('real-responses');
const files = !present ? [] : Object.keys(FOLDERS).flatMap((folder) =>
  fs.readdirSync(path.join(corpusDir, folder)).filter((f) => f.endsWith('.json')).sort().map((f) => `${folder}/${f}`),
);

describe.skipIf(!present)('media checks against real recorded responses', () => {
  it('finds the recordings', () => {
    expect(files.length).toBeGreaterThan(30);
    for (const s of SKIPS) expect(files, `skip entry for a missing file ${s.file}`).toContain(s.file);
  });

  it.each(files)('%s', (file) => {
    const rec = JSON.parse(fs.readFileSync(path.join(corpusDir, file), 'utf8')) as Recording;
    const exchange = exchangeOf(rec);
    const ctx: CheckContext = { request: requestViewOf(rec), profile, vars: {}, schemas, params: {}, history: new Map() };
    const ran: string[] = [];
    for (const check of FOLDERS[file.split('/')[0]!]!) {
      if (check.kind !== 'response') continue;
      const notApplicable = applies(check, rec);
      if (notApplicable) continue; // not a check for this endpoint or kind of case: not a skip worth printing
      const skip = SKIPS.find((s) => s.file === file && (s.checks === '*' || s.checks.includes(check.name)));
      const findings = () => findingsOf((check as ResponseCheck).run(exchange, ctx));
      if (skip) {
        console.log(`skip ${file} ${check.name}: ${skip.reason}`);
        if (skip.fails) expect(check.skipWhen?.(exchange, ctx) ?? findings().length, `${check.name} was expected to fail on ${file} (stale skip?)`).toBeGreaterThan(0);
        continue;
      }
      const why = check.skipWhen?.(exchange, ctx);
      if (why) {
        // A check for another response_format, or for the other kind of image item, does not apply: no need to print it.
        if (!NOT_APPLICABLE.test(why)) console.log(`skip ${file} ${check.name}: ${why}`);
        continue;
      }
      expect(findings(), `${check.name} on ${file}`).toEqual([]);
      ran.push(check.name);
    }
    if (!SKIPS.some((s) => s.file === file && s.checks === '*')) expect(ran.length, `no check ran on ${file}`).toBeGreaterThan(0);
  });
});
