// A plugin operation's 2xx JSON answer against the schema its OpenAPI description documents for it.
// The description is the plugin's contract with the model ("the plugin's own operations | described by the
// OpenAPI document"): a documented required property that is absent, or a value of another type, misleads it.
// Only those two are a must. Every other keyword (enum, pattern, bounds, additionalProperties, oneOf between
// loose branches) is a stricter reading of a hand-written description and judged as a should; `format` is not
// judged at all (its vocabulary differs between OpenAPI versions and tools).

import { Ajv, type ValidateFunction } from 'ajv';
import { convertErrors, type SchemaIssue } from '../../schema/registry.ts';
import type { Exchange } from '../../transport/types.ts';
import { deref, documentOf, HISTORY, isObject, type Json } from './shared.ts';
import type { CheckContext } from '../types.ts';

/** Issues a must judges: the body lacks what the description promises, or has it in another type. */
export const STRUCTURAL_KEYWORDS: ReadonlySet<string> = new Set(['required', 'type']);

export interface OperationKey {
  path: string;
  /** Lower case, as in the description. */
  method: string;
}

export type SchemaVerdict =
  | { kind: 'not-applicable'; why: string }
  | { kind: 'no-schema'; status: string; mediaType: string }
  | { kind: 'unreadable'; why: string }
  | { kind: 'judged'; issues: SchemaIssue[] };

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * The description's response key for a success: the code or its class (`2XX`). Never `default`: it usually
 * describes the errors, and a 201 answered where 200 is documented is only the should PLUGIN-RESPONSES-DOCUMENTED.
 */
function responseKey(responses: Json, status: number): string | undefined {
  const code = String(status);
  return [code, `${code[0]}XX`, `${code[0]}xx`].find((k) => k in responses);
}

/** OpenAPI 3.0 into JSON Schema: `nullable` admits null; a writeOnly property is never required in an answer. */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!isObject(node)) return node;
  const out: Json = {};
  // Unknown keywords (example, xml, discriminator) are ignored by Ajv without strict mode, and formats are not validated.
  for (const [k, v] of Object.entries(node)) out[k] = toJsonSchema(v);
  // OpenAPI 3.0's boolean exclusiveMinimum/Maximum (beside minimum/maximum) is JSON Schema's number form.
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] === true && typeof out[bound] === 'number') { out[flag] = out[bound]; delete out[bound]; } else delete out[flag];
    }
  }
  if (node['nullable'] === true) {
    delete out['nullable'];
    const t = out['type'];
    if (typeof t === 'string') {
      out['type'] = [t, 'null'];
      if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
    } else if (t === undefined) {
      // nullable beside allOf/$ref (the 3.0 idiom for a nullable reference): null, or the schema.
      return { anyOf: [{ type: 'null' }, out] };
    }
  }
  const props = out['properties'];
  if (isObject(props) && Array.isArray(out['required'])) {
    out['required'] = out['required'].filter((name) => !(isObject(props[String(name)]) && (props[String(name)] as Json)['writeOnly'] === true));
  }
  return out;
}

const compiled = new WeakMap<Json, Map<string, ValidateFunction | string>>();

/** Compile once per description and schema location; a reference outside the document is unreadable. */
function validatorFor(doc: Json, at: string, schema: unknown): ValidateFunction | string {
  let byPointer = compiled.get(doc);
  if (!byPointer) compiled.set(doc, (byPointer = new Map()));
  const known = byPointer.get(at);
  if (known !== undefined) return known;
  let made: ValidateFunction | string;
  try {
    // The components go along with the schema, so that its `#/components/...` references resolve as in the document.
    const own = toJsonSchema(schema);
    const root = { ...(isObject(own) ? own : {}), components: toJsonSchema(doc['components'] ?? {}) };
    made = new Ajv({ allErrors: true, strict: false, verbose: true, validateFormats: false, validateSchema: false }).compile(root);
  } catch (e) {
    made = `the documented schema cannot be compiled: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  }
  byPointer.set(at, made);
  return made;
}

/** Judge an operation's answer against its documented schema, or say why it cannot be. */
export function judgeOperationBody(exchange: Exchange, ctx: CheckContext): SchemaVerdict {
  const r = exchange.response;
  if (!r || r.status < 200 || r.status >= 300) return { kind: 'not-applicable', why: 'not a 2xx answer' };
  if (r.json === undefined) return { kind: 'not-applicable', why: 'the answer is not JSON' };
  const op = ctx.params['operation'] as OperationKey | undefined;
  const doc = documentOf(ctx.history.get(HISTORY.openapi));
  if (!op || !doc) return { kind: 'not-applicable', why: 'no OpenAPI description to judge against' };
  const item = deref(doc, isObject(doc['paths']) ? doc['paths'][op.path] : undefined);
  const operation = isObject(item) ? item[op.method] : undefined;
  const responses = isObject(operation) && isObject(operation['responses']) ? operation['responses'] : undefined;
  if (!responses) return { kind: 'not-applicable', why: 'the operation documents no responses' };
  const key = responseKey(responses, r.status);
  if (key === undefined) return { kind: 'not-applicable', why: `status ${r.status} is not documented (see plugin_operation_documented_response)` };
  const response = deref(doc, responses[key]);
  const content = isObject(response) && isObject(response['content']) ? response['content'] : {};
  const ct = (r.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const mediaType = [ct, ...Object.keys(content).filter((m) => JSON_MEDIA.test(m.split(';')[0]!.trim().toLowerCase()))].find((m) => m in content);
  const media = mediaType === undefined ? undefined : content[mediaType];
  if (!isObject(media) || media['schema'] === undefined) return { kind: 'no-schema', status: key, mediaType: mediaType ?? ct };
  const validate = validatorFor(doc, `${op.method} ${op.path} ${key} ${mediaType}`, deref(doc, media['schema']));
  if (typeof validate === 'string') return { kind: 'unreadable', why: validate };
  return { kind: 'judged', issues: validate(r.json) ? [] : convertErrors(validate.errors ?? []) };
}

/**
 * The issues a must judges: a missing required property or a value of another type, unless a oneOf/anyOf failed on
 * the same value or one holding it. Then those may be only the branches' own (Ajv reports a branch that refers to a
 * component apart from its combinator), and which branch was meant is a stricter reading: the should's business.
 */
export function structuralIssues(issues: readonly SchemaIssue[]): SchemaIssue[] {
  const combinators = issues.filter((i) => i.keyword === 'oneOf' || i.keyword === 'anyOf').map((i) => (i.pointer === '/' ? '' : i.pointer));
  const underCombinator = (p: string) => combinators.some((c) => p === c || p === '/' && c === '' || p.startsWith(`${c}/`));
  return issues.filter((i) => STRUCTURAL_KEYWORDS.has(i.keyword) && !underCombinator(i.pointer === '/' ? '' : i.pointer));
}
