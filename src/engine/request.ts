// A rendered case request → the bytes to send, plus the views of it that checks and reports see.

import type { RequestSpec } from '../suite/types.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { OutgoingRequest, RequestBodySummary } from '../transport/types.ts';
import type { PlannedRequestView } from '../checks/types.ts';
import { buildFile } from '../fixtures/build.ts';
import { boundaryFor, encodeMultipart } from '../transport/multipart.ts';

/** A key that no server issues, for "an invalid key is rejected". */
export const INVALID_API_KEY = 'sk-conformance-invalid-key-0000000000000000';

export class RequestBuildError extends Error {}

/** Small text uploads (JSONL, text) keep their content in the body summary: a differential run resends them. */
const TEXT_KEPT_BYTES = 64 * 1024;

export function buildRequest(spec: RequestSpec, profile: TargetProfile, boundarySeed: string): { outgoing: OutgoingRequest; view: PlannedRequestView } {
  const url = resolveUrl(spec, profile);
  const headers: Record<string, string> = { 'user-agent': 'model-api-conformance' };
  const key = keyFor(spec.auth ?? 'default', profile);
  // other-scheme: the valid key under a scheme that is not Bearer (a server that reads only the token accepts it).
  if (key) headers['authorization'] = `${spec.auth === 'other-scheme' ? 'Token' : 'Bearer'} ${key}`;
  const org = spec.organization === 'other' ? profile.credentials.otherOrganization : spec.organization === 'none' ? undefined : profile.credentials.organization;
  if (spec.organization === 'other' && !org) throw new RequestBuildError('the case needs --other-organization');
  if (org) headers['service-organization'] = org;
  if (spec.stream) headers['accept'] = 'text/event-stream';

  let body: Uint8Array | undefined;
  let bodySummary: RequestBodySummary = { kind: 'none' };
  let multipartFields: Record<string, string> | undefined;
  if (spec.json !== undefined) {
    body = Buffer.from(JSON.stringify(spec.json), 'utf8');
    headers['content-type'] = 'application/json';
    bodySummary = { kind: 'json', value: spec.json };
  } else if (spec.multipart) {
    multipartFields = Object.fromEntries(Object.entries(spec.multipart.fields ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    const files = (spec.multipart.files ?? []).map((f) => ({ spec: f, built: buildFile(f) }));
    const encoded = encodeMultipart(
      [
        ...Object.entries(multipartFields).map(([name, value]) => ({ name, value })),
        ...files.map(({ spec: f, built }) => ({ name: f.field, filename: f.filename, contentType: built.contentType, data: built.bytes })),
      ],
      boundaryFor(boundarySeed),
    );
    body = encoded.body;
    headers['content-type'] = encoded.contentType;
    bodySummary = {
      kind: 'multipart',
      fields: multipartFields,
      files: files.map(({ spec: f, built }) => ({
        field: f.field, filename: f.filename, contentType: built.contentType, size: built.bytes.length, sha256: built.sha256, fixture: built.description,
        ...((f.jsonl !== undefined || f.text !== undefined) && built.bytes.length <= TEXT_KEPT_BYTES ? { text: Buffer.from(built.bytes).toString('utf8') } : {}),
      })),
    };
  }
  for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;

  const outgoing: OutgoingRequest = { method: spec.method, url, headers, bodySummary, stream: spec.stream ?? false, ...(body ? { body } : {}) };
  const view: PlannedRequestView = {
    method: spec.method,
    path: spec.path,
    query: spec.query ?? {},
    ...(spec.json !== undefined ? { json: spec.json } : {}),
    ...(multipartFields ? { multipartFields } : {}),
    stream: spec.stream ?? false,
  };
  return { outgoing, view };
}

/**
 * The caller's key with everything after its first 8 characters replaced: a server that compares keys on a
 * prefix (or a masked form, `sk-abcd…`) accepts it. Only the 8 characters a masked key shows anyway are kept.
 */
export function alteredKey(key: string): string {
  const kept = key.slice(0, 8);
  return kept + 'conformance-altered-key-0000000000000000'.slice(0, Math.max(16, key.length - 8));
}

function keyFor(auth: NonNullable<RequestSpec['auth']>, profile: TargetProfile): string | undefined {
  switch (auth) {
    case 'none': return undefined;
    case 'invalid': return INVALID_API_KEY;
    case 'altered':
      if (!profile.credentials.apiKey) throw new RequestBuildError('the case needs --api-key');
      return alteredKey(profile.credentials.apiKey);
    case 'member':
      if (!profile.credentials.memberApiKey) throw new RequestBuildError('the case needs --member-api-key');
      return profile.credentials.memberApiKey;
    case 'default':
    case 'other-scheme': return profile.credentials.apiKey;
  }
}

/** Paths are relative to the base URL's path prefix minus a trailing /v1, so `/v1/models` works for `https://host/v1` and `https://host`. */
function resolveUrl(spec: RequestSpec, profile: TargetProfile): string {
  const base = spec.base === 'plugin' ? profile.pluginUrl : profile.baseUrl;
  if (!base) throw new RequestBuildError('the case needs --plugin-url');
  const root = spec.base === 'plugin' ? base : base.replace(/\/v1$/, '');
  const query = spec.query && Object.keys(spec.query).length > 0 ? spec.query : undefined;
  if (!query) return normalisedUrl(root + spec.path);
  const url = new URL(root + spec.path);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return url.toString();
}

/**
 * A URL as WHATWG URL writes it, kept for the next request to the same one: a suite of thousands of cases asks
 * for the same few endpoints again and again. Bounded: a suite that names thousands of distinct paths parses
 * the ones beyond the bound each time.
 */
const normalised = new Map<string, string>();
const NORMALISED_MAX = 512;
function normalisedUrl(raw: string): string {
  let url = normalised.get(raw);
  if (url === undefined) {
    url = new URL(raw).toString();
    if (normalised.size < NORMALISED_MAX) normalised.set(raw, url);
  }
  return url;
}
