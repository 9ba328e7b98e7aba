// The properties: for every limit of src/fuzz/limits.ts an accept property (values within the limit give a 2xx
// response satisfying the endpoint's invariants) and a reject property (values outside are refused with a 4xx),
// plus whole-request properties per endpoint that set several limited parameters at once to find interactions.

import fc from 'fast-check';
import type { Severity } from '../checks/types.ts';
import { loadCatalogue } from '../catalogue/load.ts';
import type { Area } from '../suite/types.ts';
import { sidesOf } from './arbitraries.ts';
import { chars, type Side } from './primitives.ts';
import { ENDPOINTS, LIMIT_SPECS, isFuzzable, type EndpointId, type LimitSpec } from './limits.ts';
import { set, type Patch } from './patch.ts';
import type { RelationContext } from './relations.ts';

export interface FuzzProperty {
  /** `<limit>.accept` / `<limit>.reject` / `<endpoint>.combined.accept|reject`; what `--grep` selects. */
  name: string;
  title: string;
  area: Area;
  endpoint: EndpointId;
  expect: 'accept' | 'reject';
  requirements: string[];
  severity: Severity;
  side: Side;
  /** Cap on random runs (fine-tune jobs are billable). */
  maxRuns?: number;
  /**
   * The requirements a failing case broke, when they are fewer than the property cites: a combined request with
   * one parameter outside its limit breaks that limit's rule, not the rules of every limit it could have broken.
   */
  citesFor?(value: unknown): string[];
}

const COSTLY_RUNS = 3;

/**
 * A property's severity is its requirements' in the catalogue (must when any is a must): the register decides which
 * reading a must holds to, and the limit table keeps no second copy of it.
 */
let severities: ((id: string) => Severity | 'untestable' | undefined) | undefined;
export function severityOfCited(ids: readonly string[]): Severity {
  severities ??= ((byId) => (id: string) => byId.get(id)?.severity)(loadCatalogue().byId);
  return ids.some((id) => severities!(id) === 'must') ? 'must' : 'should';
}

export function buildProperties(rc: RelationContext): FuzzProperty[] {
  const out: FuzzProperty[] = [];
  const rejectsByEndpoint = new Map<EndpointId, Array<{ limit: LimitSpec; side: Side }>>();
  for (const limit of LIMIT_SPECS) {
    if (!isFuzzable(limit)) continue;
    const endpoint = ENDPOINTS[limit.endpoint];
    const sides = sidesOf(limit, rc);
    const common = { area: endpoint.area, endpoint: endpoint.id, ...(limit.costly ? { maxRuns: COSTLY_RUNS } : {}) };
    if (sides.accept && limit.accept?.length) {
      out.push({ ...common, name: `${limit.name}.accept`, title: `${limit.name}: values within "${limit.rule}" are accepted with a valid response`, expect: 'accept', requirements: [...limit.accept], severity: severityOfCited(limit.accept), side: sides.accept });
    }
    if (sides.reject && limit.reject?.length) {
      const severity = severityOfCited(limit.reject);
      out.push({ ...common, name: `${limit.name}.reject`, title: `${limit.name}: values outside "${limit.rule}" are rejected (4xx)`, expect: 'reject', requirements: [...limit.reject], severity, side: sides.reject });
      if (severity === 'must' && !limit.costly) {
        const list = rejectsByEndpoint.get(endpoint.id) ?? [];
        list.push({ limit, side: sides.reject });
        rejectsByEndpoint.set(endpoint.id, list);
      }
    }
  }
  for (const combo of COMBINATIONS) {
    const accept = LIMIT_SPECS.filter((l) => l.endpoint === combo.endpoint && l.accept?.length && combo.cites.includes(l.name)).flatMap((l) => l.accept!);
    const area = ENDPOINTS[combo.endpoint].area;
    out.push({ name: `${combo.endpoint}.combined.accept`, title: `${combo.endpoint}: whole requests with several parameters within their limits are accepted with a valid response`, area, endpoint: combo.endpoint, expect: 'accept', requirements: [...new Set(accept)], severity: 'must', side: combo.side });
    const rejects = rejectsByEndpoint.get(combo.endpoint) ?? [];
    if (rejects.length) {
      const violation = fc.oneof(...rejects.map(({ limit, side }) => side.arbitrary.map((value) => ({ limit: limit.name, value }))));
      const byName = new Map(rejects.map((r) => [r.limit.name, r]));
      type V = [unknown, { limit: string; value: unknown }];
      const side: Side<V> = {
        arbitrary: fc.tuple(combo.side.arbitrary, violation),
        examples: [],
        patches: ([ok, bad]) => [...combo.side.patches(ok), ...byName.get(bad.limit)!.side.patches(bad.value)],
        describe: ([ok, bad]) => `${combo.side.describe(ok)}; outside the limit: ${byName.get(bad.limit)!.side.describe(bad.value)}`,
      };
      out.push({
        name: `${combo.endpoint}.combined.reject`, title: `${combo.endpoint}: a whole request with one parameter outside its limit is rejected (4xx)`, area, endpoint: combo.endpoint, expect: 'reject',
        requirements: [...new Set(rejects.flatMap((r) => r.limit.reject ?? []))], severity: 'must', side: side as unknown as Side,
        citesFor: (value) => [...(byName.get((value as V)[1].limit)!.limit.reject ?? [])],
      });
    }
  }
  return out;
}

/** A record of optional request fields → patches that set the present ones. */
function jsonRecord<T extends Record<string, unknown>>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }, required: Array<keyof T>, at: (k: string) => string = (k) => `json:/${k}`): Side<Partial<T>> {
  return {
    arbitrary: fc.record(model, { requiredKeys: required as Array<keyof T & string> }) as fc.Arbitrary<Partial<T>>,
    examples: [],
    patches: (v) => Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => set(at(k), x)),
    describe: (v) => Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${k}=${JSON.stringify(x)}`).join(', '),
  };
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const stopSeqs = fc.array(fc.string({ unit: chars(ALNUM), minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 });
const penalty = fc.double({ min: -2, max: 2, noNaN: true });
// Token ids every vocabulary has (a 32k one included): an id past a model's vocabulary may be refused.
const logitBias = fc.dictionary(fc.integer({ min: 0, max: 1000 }).map(String), fc.double({ min: -100, max: 100, noNaN: true }), { minKeys: 1, maxKeys: 3 });
/** temperature or top_p, not both ("change this or top_p, not both"). */
const sampling = fc.oneof(fc.constant({}), fc.record({ temperature: fc.double({ min: 0, max: 2, noNaN: true }) }), fc.record({ top_p: fc.double({ min: 0.01, max: 1, noNaN: true }) }));

interface Combination {
  endpoint: EndpointId;
  /** Limits whose accept IDs the property cites. */
  cites: string[];
  side: Side;
}

function withSampling(base: Side<Record<string, unknown>>, key = 'json'): Side {
  const s: Side<[Record<string, unknown>, Record<string, unknown>]> = {
    arbitrary: fc.tuple(base.arbitrary, sampling),
    examples: [],
    patches: ([a, b]) => [...base.patches(a), ...Object.entries(b).map(([k, v]) => set(`${key === 'json' ? 'json:/' : 'form:'}${k}`, v))],
    describe: ([a, b]) => [base.describe(a), ...Object.entries(b).map(([k, v]) => `${k}=${JSON.stringify(v)}`)].filter(Boolean).join(', '),
  };
  return s as unknown as Side;
}

const completionsCombo: Side = (() => {
  type C = { n: number; extra?: number; logprobs?: number; stop?: string[]; echo?: boolean; presence_penalty?: number; frequency_penalty?: number; logit_bias?: Record<string, number>; max_tokens: number; user?: string };
  const rec = jsonRecord<C>({
    n: fc.integer({ min: 1, max: 3 }), extra: fc.integer({ min: 1, max: 3 }), logprobs: fc.integer({ min: 0, max: 5 }), stop: stopSeqs, echo: fc.boolean(),
    presence_penalty: penalty, frequency_penalty: penalty, logit_bias: logitBias, max_tokens: fc.integer({ min: 1, max: 16 }), user: fc.string({ unit: chars(ALNUM), maxLength: 12 }),
  }, ['n', 'max_tokens']);
  const base: Side<Partial<C>> = {
    ...rec,
    patches: (v) => {
      const { extra, ...rest } = v;
      const p: Patch[] = rec.patches(rest);
      if (extra !== undefined) p.push(set('json:/best_of', (v.n ?? 1) + extra));
      return p;
    },
    describe: (v) => {
      const { extra, ...rest } = v;
      return rec.describe(rest) + (extra !== undefined ? `, best_of=${(v.n ?? 1) + extra}` : '');
    },
  };
  return withSampling(base as Side<Record<string, unknown>>);
})();

const chatCombo: Side = withSampling(jsonRecord({
  n: fc.integer({ min: 1, max: 3 }), stop: stopSeqs, presence_penalty: penalty, frequency_penalty: penalty, logit_bias: logitBias, max_tokens: fc.integer({ min: 1, max: 16 }), user: fc.string({ unit: chars(ALNUM), maxLength: 12 }),
}, ['max_tokens']) as Side<Record<string, unknown>>);

const editsCombo: Side = withSampling(jsonRecord({
  model: fc.constantFrom('text-davinci-edit-001', 'code-davinci-edit-001'), n: fc.integer({ min: 1, max: 3 }),
}, []) as Side<Record<string, unknown>>);

/**
 * b64_json bodies make the server encode every image; at 1024x1024 that costs ~100 ms per image on the reference
 * server (and every image is decoded by the checks), so b64_json is combined with 256x256 and n ≤ 3 only
 * (the other sizes and n up to 10 are combined with url).
 */
const imageCommon = {
  n: fc.integer({ min: 1, max: 10 }),
  // Never only spaces: a blank required prompt may be refused as missing.
  prompt: fc.string({ unit: chars('abcdefghijklmnopqrstuvwxyz '), minLength: 1, maxLength: 1000 }).filter((s) => s.trim() !== ''),
  user: fc.string({ unit: chars(ALNUM), maxLength: 12 }),
};
const imagesCombo: Side = (() => {
  const url = jsonRecord({ ...imageCommon, size: fc.constantFrom('256x256', '512x512', '1024x1024'), response_format: fc.constant('url') }, ['prompt']);
  const b64 = jsonRecord({ ...imageCommon, n: fc.integer({ min: 1, max: 3 }), size: fc.constant('256x256'), response_format: fc.constant('b64_json') }, ['prompt', 'response_format']);
  return { ...url, arbitrary: fc.oneof(url.arbitrary, b64.arbitrary) } as unknown as Side;
})();

const audioCombo: Side = jsonRecord({
  temperature: fc.double({ min: 0, max: 1, noNaN: true }), response_format: fc.constantFrom('json', 'text', 'srt', 'verbose_json', 'vtt'),
  language: fc.constantFrom('en', 'fr', 'de', 'es'), prompt: fc.string({ unit: chars('abcdefghijklmnopqrstuvwxyz '), maxLength: 40 }),
}, [], (k) => `form:${k}`) as unknown as Side;

const COMBINATIONS: Combination[] = [
  { endpoint: 'completions', cites: ['completions.temperature', 'completions.top_p', 'completions.n', 'completions.logprobs', 'completions.stop', 'completions.presence_penalty', 'completions.frequency_penalty', 'completions.best_of', 'completions.logit_bias'], side: completionsCombo },
  { endpoint: 'chat', cites: ['chat.temperature', 'chat.top_p', 'chat.n', 'chat.stop', 'chat.max_tokens', 'chat.presence_penalty', 'chat.frequency_penalty', 'chat.logit_bias'], side: chatCombo },
  { endpoint: 'edits', cites: ['edits.model', 'edits.temperature', 'edits.top_p', 'edits.n'], side: editsCombo },
  { endpoint: 'images.generations', cites: ['images.generations.n', 'images.generations.size', 'images.generations.response_format', 'images.generations.prompt'], side: imagesCombo },
  { endpoint: 'audio.transcriptions', cites: ['audio.transcriptions.temperature', 'audio.transcriptions.response_format', 'audio.transcriptions.language'], side: audioCombo },
];

