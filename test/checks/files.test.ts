/** Unit tests of the files-area checks: for each check an input that passes and one that fails. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FILES_CHECKS } from '../../src/checks/files/index.ts';
import { findingsOf, isNotExercised, type Check, type CheckContext, type Finding, type PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange, ExchangeRequest } from '../../src/transport/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';

const schemas = SchemaRegistry.load();
const profile = buildProfile({}, { baseUrl: 'http://127.0.0.1:1' });

function exchangeOf(json: unknown, opts: { status?: number; bytes?: Uint8Array; request?: ExchangeRequest['body']; contentType?: string } = {}): Exchange {
  const text = opts.bytes ? Buffer.from(opts.bytes).toString('utf8') : JSON.stringify(json);
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/files', headers: {}, body: opts.request ?? { kind: 'none' } },
    response: { status: opts.status ?? 200, headers: { 'content-type': opts.contentType ?? 'application/json' }, text, ...(json !== undefined ? { json } : {}), bytes: opts.bytes ?? Buffer.from(text), truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}

function ctxOf(request: Partial<PlannedRequestView> = {}, params: Record<string, unknown> = {}, history: Record<string, Exchange> = {}): CheckContext {
  return { request: { method: 'GET', path: '/v1/files', query: {}, stream: false, ...request }, profile, vars: {}, schemas, params, history: new Map(Object.entries(history)) };
}

type Outcome = { skip: string } | { findings: Finding[] } | { notExercised: string };
function outcome(check: Check, exchange: Exchange, ctx: CheckContext): Outcome {
  const skip = check.skipWhen?.(exchange, ctx);
  if (skip) return { skip };
  if (check.kind !== 'response') throw new Error('response checks only here');
  const verdict = check.run(exchange, ctx);
  return isNotExercised(verdict) ? verdict : { findings: findingsOf(verdict) };
}

const check = (name: string): Check => {
  const c = FILES_CHECKS.find((x) => x.name === name);
  if (!c) throw new Error(`no check ${name}`);
  return c;
};

const CONTENT = Buffer.from('{"prompt":"a ->","completion":" b END"}\n');
const SHA = createHash('sha256').update(CONTENT).digest('hex');
const uploadBody: ExchangeRequest['body'] = { kind: 'multipart', fields: { purpose: 'fine-tune' }, files: [{ field: 'file', filename: 'train.jsonl', contentType: 'application/jsonl', size: CONTENT.length, sha256: SHA }] };
const FILE = { id: 'file-1', object: 'file', bytes: CONTENT.length, created_at: 1676758023, filename: 'train.jsonl', purpose: 'fine-tune' };
const upload = exchangeOf(FILE, { request: uploadBody });
const uploadCtx = ctxOf({ method: 'POST', multipartFields: { purpose: 'fine-tune' } });
const list = (ids: string[]) => exchangeOf({ object: 'list', data: ids.map((id) => ({ ...FILE, id })) });

interface Row {
  name: string;
  pass: [Exchange, CheckContext];
  fail: [Exchange, CheckContext];
  finding: RegExp;
}

const ROWS: Row[] = [
  {
    name: 'file_echoes_upload',
    pass: [upload, uploadCtx],
    fail: [exchangeOf({ ...FILE, bytes: CONTENT.length + 1, filename: 'file' }, { request: uploadBody }), uploadCtx],
    finding: /bytes is not the size/,
  },
  {
    name: 'file_same_as_upload',
    pass: [exchangeOf(FILE), ctxOf({}, { upload: 'up' }, { up: upload })],
    fail: [exchangeOf({ ...FILE, purpose: 'search' }), ctxOf({}, { upload: 'up' }, { up: upload })],
    finding: /purpose differs/,
  },
  {
    name: 'file_content_matches_upload',
    pass: [exchangeOf(undefined, { bytes: CONTENT, contentType: 'application/octet-stream' }), ctxOf({}, { upload: 'up' }, { up: upload })],
    fail: [exchangeOf(undefined, { bytes: Buffer.from(CONTENT.toString().replace('\n', '\r\n')), contentType: 'application/octet-stream' }), ctxOf({}, { upload: 'up' }, { up: upload })],
    finding: /size differs/,
  },
  {
    name: 'file_content_get_accepted',
    pass: [exchangeOf(undefined, { bytes: CONTENT }), ctxOf()],
    fail: [exchangeOf({ error: { message: 'method not allowed' } }, { status: 405 }), ctxOf()],
    finding: /was not served/,
  },
  {
    name: 'file_deleted_id_matches',
    pass: [exchangeOf({ id: 'file-1', object: 'file', deleted: true }), ctxOf({ method: 'DELETE', path: '/v1/files/file-1' })],
    fail: [exchangeOf({ id: 'file-2', object: 'file', deleted: true }), ctxOf({ method: 'DELETE', path: '/v1/files/file-1' })],
    finding: /id differs/,
  },
  { name: 'file_listed', pass: [list(['file-0', 'file-1']), ctxOf({}, { id: 'file-1' })], fail: [list(['file-0']), ctxOf({}, { id: 'file-1' })], finding: /is not listed/ },
  { name: 'file_not_listed_after_delete', pass: [list(['file-0']), ctxOf({}, { id: 'file-1' })], fail: [list(['file-1']), ctxOf({}, { id: 'file-1' })], finding: /is listed/ },
  { name: 'file_listed_in_own_org', pass: [list(['file-1']), ctxOf({}, { id: 'file-1' })], fail: [list([]), ctxOf({}, { id: 'file-1' })], finding: /is not listed/ },
  { name: 'file_not_listed_in_other_org', pass: [list([]), ctxOf({}, { id: 'file-9' })], fail: [list(['file-9']), ctxOf({}, { id: 'file-9' })], finding: /another organization's file file-9 is listed/ },
  {
    name: 'foreign_organization_rejected',
    pass: [exchangeOf({ error: { message: 'No such organization' } }, { status: 401 }), ctxOf()],
    fail: [exchangeOf({ object: 'list', data: [] }), ctxOf()],
    finding: /was not refused/,
  },
  // Refused at upload, or (accepted there) refused by the create that names the file: an upload accepted is skipped.
  { name: 'file_invalid_jsonl_refused', pass: [exchangeOf({ error: { message: 'invalid line 2' } }, { status: 400 }), ctxOf()], fail: [(() => { const e = exchangeOf({ id: 'ft-1', object: 'fine-tune' }); e.request.url = 'http://127.0.0.1:1/v1/fine-tunes'; return e; })(), ctxOf()], finding: /was not refused/ },
  { name: 'file_invalid_jsonl_refused_at_upload', pass: [exchangeOf({ error: { message: 'invalid line 2' } }, { status: 400 }), ctxOf()], fail: [exchangeOf(FILE), ctxOf()], finding: /accepted at upload/ },
  { name: 'file_unknown_id_404', pass: [exchangeOf({ error: {} }, { status: 404 }), ctxOf()], fail: [exchangeOf({ error: {} }, { status: 400 }), ctxOf()], finding: /answered 404/ },
  { name: 'ft_unknown_id_404', pass: [exchangeOf({ error: {} }, { status: 404 }), ctxOf()], fail: [exchangeOf(FILE), ctxOf()], finding: /answered 404/ },
];

describe('files checks', () => {
  it('every registered files check has a row here', () => {
    expect(FILES_CHECKS.map((c) => c.name).sort()).toEqual(ROWS.map((r) => r.name).sort());
  });

  it.each(ROWS)('$name passes a good input and fails a bad one', (row) => {
    expect(outcome(check(row.name), ...row.pass)).toEqual({ findings: [] });
    const bad = outcome(check(row.name), ...row.fail);
    expect('findings' in bad && bad.findings.length > 0, JSON.stringify(bad)).toBe(true);
    expect((bad as { findings: Finding[] }).findings.map((f) => f.message).join('\n')).toMatch(row.finding);
  });

  it('file content sent as a JSON string of the file (a web framework returning the text) is the content; another text is not', () => {
    const asJson = (text: string) => exchangeOf(text, { contentType: 'application/json', bytes: Buffer.from(JSON.stringify(text)) });
    expect(outcome(check('file_content_matches_upload'), asJson(CONTENT.toString()), ctxOf({}, { upload: 'up' }, { up: upload }))).toEqual({ findings: [] });
    expect((outcome(check('file_content_matches_upload'), asJson(CONTENT.toString() + 'x'), ctxOf({}, { upload: 'up' }, { up: upload })) as { findings: unknown[] }).findings).toHaveLength(1);
  });

  it('a page of a longer list (has_more: true) that lacks the item has not shown it missing; one that holds a deleted item has', () => {
    const page = (ids: string[]) => exchangeOf({ object: 'list', data: ids.map((id) => ({ id, object: 'file' })), has_more: true });
    expect(outcome(check('file_listed'), page(['file-0']), ctxOf({}, { id: 'file-1' }))).toEqual({ notExercised: expect.stringMatching(/has_more/) });
    expect((outcome(check('file_not_listed_after_delete'), page(['file-1']), ctxOf({}, { id: 'file-1' })) as { findings: unknown[] }).findings).toHaveLength(1);
  });

  it('skips instead of passing when the data it needs is missing', () => {
    expect(outcome(check('file_content_matches_upload'), exchangeOf(undefined, { bytes: CONTENT }), ctxOf({}, { upload: 'up' }))).toEqual({ skip: 'case "up" did not run' });
    expect('skip' in outcome(check('file_listed'), exchangeOf({ error: {} }, { status: 500 }), ctxOf({}, { id: 'x' }))).toBe(true);
    expect(() => outcome(check('file_listed'), list([]), ctxOf())).toThrow(/with: \{ id/);
  });
});
