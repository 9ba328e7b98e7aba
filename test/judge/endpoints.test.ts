// The table of what an exchange no suite designed is held to (src/judge/endpoints.ts): every registered check is
// in it or says why it needs a designed request; its endpoints and schemas are the spec's and the suites'; and the
// judge, run on the real service's recorded answers with nothing but that table, finds no must-failure.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/checks/index.ts';
import type { CheckContext, PlannedRequestView } from '../../src/checks/types.ts';
import { DESIGNED, ENDPOINT_EXPECTATIONS, endpointExpectations, endpointFor, schemaOf } from '../../src/judge/endpoints.ts';
import { judge } from '../../src/judge/judge.ts';
import { loadHarness } from '../../src/run/setup.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import type { Exchange } from '../../src/transport/types.ts';
import { isRecord } from '../../src/util/json-type.ts';
import { sharedDir } from '../../src/util/paths.ts';
import { sharedPresent } from '../shared.ts';

const registry = defaultRegistry();
const schemas = SchemaRegistry.load();

describe('the endpoint table', () => {
  it('holds every registered check once: sound on any exchange of an endpoint, or needing a designed request, with why', () => {
    const tabled = new Set(ENDPOINT_EXPECTATIONS.flatMap((e) => e.checks));
    const names = [...registry.names()];
    expect(names.filter((n) => !tabled.has(n) && !DESIGNED[n])).toEqual([]);
    expect(names.filter((n) => tabled.has(n) && DESIGNED[n])).toEqual([]);
    expect([...tabled, ...Object.keys(DESIGNED)].filter((n) => !registry.get(n))).toEqual([]);
    for (const [name, why] of Object.entries(DESIGNED)) expect(why.length, name).toBeGreaterThan(10);
  });

  it('names endpoints the spec writes, and schemas the registry has', () => {
    const spec = fs.readFileSync(path.join(sharedDir, 'spec', 'service-api-and-plugin-spec.md'), 'utf8').replace(/\{[a-z_]+\}/g, '{}');
    for (const e of ENDPOINT_EXPECTATIONS) {
      expect(spec, `${e.method} ${e.path}`).toContain(e.path.replace(/\{[a-z_]+\}/g, '{}'));
      const choices = e.schema === null ? [] : typeof e.schema === 'string' ? [e.schema] : [e.schema.default, ...Object.values(e.schema.values)];
      for (const s of choices) if (s !== null) expect(schemas.has(s), s).toBe(true);
    }
  });

  it('agrees with the suites: every case finds its endpoint, and a case stating a schema states the one the table chooses', () => {
    const { plans } = loadHarness();
    const disagree: string[] = [];
    for (const { spec } of plans) {
      for (const c of spec.cases) {
        const e = endpointFor(c.request.method, c.request.path);
        if (!e) { disagree.push(`${spec.name}/${c.id}: ${c.request.method} ${c.request.path} has no endpoint`); continue; }
        const stated = c.expect?.schema;
        const chosen = schemaOf(e, { json: c.request.json, multipartFields: c.request.multipart?.fields as Record<string, string> | undefined, query: c.request.query ?? {} });
        if (stated && chosen && stated !== chosen) disagree.push(`${spec.name}/${c.id}: states ${stated}, the table chooses ${chosen}`);
      }
    }
    expect(disagree).toEqual([]);
  });

  it('resolves a path behind a base path and with a query, and nothing outside the table', () => {
    expect(endpointFor('get', '/proxy/v1/fine-tunes/ft-1/events?stream=true')?.path).toBe('/v1/fine-tunes/{fine_tune_id}/events');
    expect(endpointFor('POST', '/v1/models')).toBeUndefined();
    expect(endpointFor('GET', '/v1/models/')).toBeUndefined();
  });
});

interface Recording { file: string; tier: string; endpoint: string; request: { method: string; path: string; body?: unknown }; response: { status: number; headers: Record<string, string | string[]>; body: unknown } }

/** The recorded JSON answers of the real service (a stream or a text body is judged elsewhere). */
function jsonRecordings(): Recording[] {
  const dir = path.join(sharedDir, 'real-responses');
  return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) =>
    fs.readdirSync(path.join(dir, d.name)).filter((f) => f.endsWith('.json')).map((f) => ({ ...JSON.parse(fs.readFileSync(path.join(dir, d.name, f), 'utf8')), file: `${d.name}/${f}` }) as Recording))
    .filter((r) => r.tier === 'recorded' && isRecord(r.response.body) && isRecord(r.request) && typeof r.request.path === 'string');
}

/** Recordings that step outside the spec (the same ones test/real-responses names), each with why. */
const OUTSIDE_SPEC: Readonly<Record<string, string>> = {
  'chat/004-function-call.json': 'request uses functions/function_call (not spec parameters): content null',
  'models/002-list-nov2023.json': 'Nov 2023 model objects dropped permission (spec Model: permission array)',
  'models/005-retrieve-nov2023.json': 'Nov 2023 model object dropped permission (spec Model: permission array)',
};
const outsideSpec = (rec: Recording): string | undefined =>
  OUTSIDE_SPEC[rec.file] ?? (isRecord(rec.request.body) && rec.request.body['encoding_format'] === 'base64' ? 'encoding_format=base64 is not a spec parameter: the embedding is a string' : undefined);

/** The recording's summary of a multipart body, as the transport summarises one it sent. */
function multipartSummary(m: Record<string, unknown>): Exchange['request']['body'] {
  const files = (Array.isArray(m['files']) ? m['files'] : []) as Array<Record<string, unknown>>;
  return {
    kind: 'multipart', fields: (m['fields'] ?? {}) as Record<string, string>,
    files: files.map((f) => ({ field: String(f['field']), filename: String(f['filename']), contentType: String(f['content_type'] ?? 'application/octet-stream'), size: Number(f['size_bytes'] ?? 0), sha256: '' })),
  };
}

describe.runIf(sharedPresent('real-responses'))('the judge on the real service\'s answers, with the endpoint table alone', () => {
  it('finds no must-failure on a JSON answer of any tabled endpoint', () => {
    const profile = buildProfile({}, { baseUrl: 'https://api.example.com' });
    const { catalogue } = loadHarness();
    const severityOf = (id: string) => catalogue.byId.get(id)?.severity;
    let judged = 0;
    const failures: string[] = [];
    for (const rec of jsonRecordings()) {
      const e = endpointFor(rec.request.method, rec.request.path);
      if (!e || outsideSpec(rec)) continue;
      const [pathOnly, query] = rec.request.path.split('?');
      const multipart = isRecord(rec.request.body) && isRecord(rec.request.body['multipart_form_data']) ? rec.request.body['multipart_form_data'] : undefined;
      const view: PlannedRequestView = {
        method: rec.request.method, path: pathOnly!, query: Object.fromEntries(new URLSearchParams(query ?? '')),
        ...(multipart ? { multipartFields: (multipart['fields'] ?? {}) as Record<string, string> } : isRecord(rec.request.body) ? { json: rec.request.body } : {}),
        stream: false,
      };
      const headers = Object.fromEntries(Object.entries(rec.response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
      const exchange: Exchange = {
        request: { method: rec.request.method as Exchange['request']['method'], url: `https://api.example.com${rec.request.path}`, headers: {}, body: multipart ? multipartSummary(multipart) : { kind: 'none' } },
        response: { status: rec.response.status, headers, truncated: false, json: rec.response.body, text: JSON.stringify(rec.response.body) },
        attachments: {}, timing: { startedAt: 0, durationMs: 0 },
      };
      const ctxFor = (): CheckContext => ({ request: view, profile, vars: {}, schemas, params: {}, history: new Map() });
      const id = endpointExpectations(e, view, { suite: 'real-responses', source: rec.file, reproduce: '' });
      const { results } = judge(exchange, id, { registry, ctxFor, folds: [], schemas, severityOf });
      judged++;
      for (const r of results) if (r.status === 'fail' || r.status === 'error') failures.push(`${rec.file}: ${r.check}: ${r.message}`);
    }
    expect(judged).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });
});

