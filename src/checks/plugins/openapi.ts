// The OpenAPI description served at the manifest's api.url ("Plugin OpenAPI description" and Limits).

import type { CheckContext, Finding, ParamSpecs, ResponseCheck } from '../types.ts';
import type { Exchange } from '../../transport/types.ts';
import {
  charCount, deref, documentOf, escapeToken, isObject, limitsOf, OPENAPI_REF, ok, operationsOf, parseDocument, show, skipUnlessDocument, typeFinding, type Json,
} from './shared.ts';
import { PLUGIN_LIMITS } from '../params.ts';

const MAX_FINDINGS = 25;

function doc(exchange: Exchange): Json {
  return documentOf(exchange)!;
}

function is30(d: Json): boolean {
  return typeof d['openapi'] === 'string' && /^3\.0\.\d+/.test(d['openapi']);
}

function check(name: string, requirements: string[], summary: string, run: (d: Json, ctx: CheckContext, exchange: Exchange) => Finding[], skip?: (d: Json) => string | undefined): ResponseCheck {
  return {
    kind: 'response', name, requirements, severity: 'must', summary,
    skipWhen: (exchange) => skipUnlessDocument(exchange) ?? skip?.(doc(exchange)),
    run: (exchange, ctx) => run(doc(exchange), ctx, exchange).slice(0, MAX_FINDINGS),
  };
}

/** A check of this file whose rule is a convention, not the spec's words: a warning. */
function should(c: ResponseCheck): ResponseCheck {
  return { ...c, severity: 'should' };
}

/** A check of this file that reads parameters (the configurable limits). */
function withParams(params: ParamSpecs, c: ResponseCheck): ResponseCheck {
  return { ...c, params };
}

function lengthFindings(text: unknown, pointer: string, limit: number, what: string): Finding[] {
  if (typeof text !== 'string') return [];
  const n = charCount(text);
  return n > limit ? [{ pointer, message: `${what} has ${n} characters; the limit is ${limit}`, expected: `≤ ${limit} characters`, actual: n }] : [];
}

/** Every `enum` keyword inside schemas of the document, with its pointer. */
function enums(node: unknown, pointer: string, out: Array<{ pointer: string; value: unknown }>, depth = 0): void {
  if (depth > 64) return;
  if (Array.isArray(node)) node.forEach((v, i) => enums(v, `${pointer}/${i}`, out, depth + 1));
  else if (isObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      const p = `${pointer}/${escapeToken(k)}`;
      if (k === 'enum' && (Array.isArray(v) || !isObject(v))) out.push({ pointer: p, value: v });
      else enums(v, p, out, depth + 1);
    }
  }
}

export const OPENAPI_CHECKS: ResponseCheck[] = [
  {
    kind: 'response',
    name: 'plugin_openapi_served',
    requirements: ['PLUGIN-OPENAPI-SERVED'],
    severity: 'must',
    summary: 'GET api.url serves the OpenAPI description (JSON or YAML)',
    run: (exchange) => {
      const r = exchange.response;
      if (!r) return [{ pointer: '', message: `GET ${exchange.request.url} failed: ${exchange.error?.message ?? 'no response'}`, expected: '2xx with a JSON or YAML document', actual: exchange.error?.kind }];
      if (!ok(exchange)) return [{ pointer: '', message: `GET ${exchange.request.url} answered ${r.status}`, expected: '2xx with a JSON or YAML document', actual: r.status }];
      const parsed = parseDocument(exchange);
      if (parsed.error !== undefined) return [{ pointer: '', message: `the OpenAPI description is ${parsed.error}`, expected: 'a JSON or YAML document', actual: show(r.text ?? '') }];
      if (!isObject(parsed.doc)) return [{ pointer: '', message: 'the OpenAPI description is not an object', expected: 'an object', actual: show(parsed.doc) }];
      return [];
    },
  },
  check('plugin_openapi_version', ['PLUGIN-OPENAPI-VERSION'], 'openapi is 3.0.x', (d) => {
    const v = d['openapi'];
    if (typeof v !== 'string') return [typeFinding('/openapi', 'a string 3.0.x', v)];
    return is30(d) ? [] : [{ pointer: '/openapi', message: `the document is OpenAPI ${v}; plugins need OpenAPI 3.0.x`, expected: '3.0.x', actual: v }];
  }),
  // The official JSON Schema is stricter than the hosts were: OpenAI's own quickstart breaks it (required: true
  // in a property schema). A stricter reading than "an OpenAPI 3.0.x document": a should.
  should(check(
    'plugin_openapi_schema',
    ['PLUGIN-OPENAPI-SCHEMA-VALID'],
    'the document is valid against the OpenAPI 3.0 schema (2021-09-28)',
    (d, ctx) => {
      const issues = ctx.schemas.validate(OPENAPI_REF, d);
      // A failed oneOf (Schema | Reference) also reports the Reference branch's missing $ref: noise.
      const oneOfAt = new Set(issues.filter((i) => i.keyword === 'oneOf').map((i) => i.pointer));
      return issues
        .filter((i) => !(i.keyword === 'required' && i.expected === 'property $ref' && oneOfAt.has(i.pointer)))
        .map((i) => ({ pointer: i.pointer === '/' ? '' : i.pointer, message: i.message, expected: i.expected, actual: i.actual }));
    },
    (d) => (is30(d) ? undefined : 'not an OpenAPI 3.0.x document (see plugin_openapi_version)'),
  )),
  check('plugin_openapi_info', ['PLUGIN-OPENAPI-INFO'], 'info has title, description and version (strings)', (d) => {
    const info = d['info'];
    if (!isObject(info)) return [typeFinding('/info', 'an object', info)];
    const out: Finding[] = [];
    for (const k of ['title', 'description', 'version']) if (typeof info[k] !== 'string') out.push(typeFinding(`/info/${k}`, 'a string', info[k]));
    return out;
  }),
  check('plugin_openapi_info_version', ['VER-OPENAPI-INFO-VERSION'], 'info.version is a string', (d) => {
    const v = isObject(d['info']) ? d['info']['version'] : undefined;
    return typeof v === 'string' ? [] : [typeFinding('/info/version', 'a string', v)];
  }),
  check('plugin_openapi_servers', ['PLUGIN-OPENAPI-SERVERS'], 'servers is a non-empty list of {url}', (d) => {
    const s = d['servers'];
    if (!Array.isArray(s)) return [typeFinding('/servers', 'a non-empty array', s)];
    if (s.length === 0) return [{ pointer: '/servers', message: '/servers is empty', expected: 'at least one server', actual: [] }];
    return s.flatMap((srv, i) => (isObject(srv) && typeof srv['url'] === 'string' ? [] : [typeFinding(`/servers/${i}/url`, 'a string', isObject(srv) ? srv['url'] : undefined)]));
  }),
  check('plugin_openapi_paths', ['PLUGIN-OPENAPI-PATHS'], 'paths has at least one operation', (d) => {
    if (!isObject(d['paths'])) return [typeFinding('/paths', 'an object', d['paths'])];
    return operationsOf(d).length ? [] : [{ pointer: '/paths', message: 'the document describes no operation', expected: 'at least one operation', actual: 0 }];
  }),
  check('plugin_openapi_operation_id', ['PLUGIN-OPENAPI-OPERATION-ID'], 'every operation has a unique operationId', (d) => {
    const out: Finding[] = [];
    const seen = new Map<string, string>();
    for (const o of operationsOf(d)) {
      const id = o.op['operationId'];
      if (typeof id !== 'string' || id === '') {
        out.push({ pointer: `${o.pointer}/operationId`, message: `${o.method.toUpperCase()} ${o.path} has no operationId`, expected: 'a string operationId', actual: id === undefined ? 'missing' : show(id) });
      } else if (seen.has(id)) {
        out.push({ pointer: `${o.pointer}/operationId`, message: `operationId ${id} is used twice (also at ${seen.get(id)})`, expected: 'unique operationIds', actual: id });
      } else seen.set(id, o.pointer);
    }
    return out;
  }),
  check('plugin_openapi_summary', ['PLUGIN-OPENAPI-SUMMARY'], 'every operation has a summary', (d) =>
    operationsOf(d).flatMap((o) => {
      const s = o.op['summary'];
      return typeof s === 'string' && s.trim() !== '' ? [] : [{ pointer: `${o.pointer}/summary`, message: `${o.method.toUpperCase()} ${o.path} has no summary`, expected: 'a non-empty string', actual: s === undefined ? 'missing' : show(s) }];
    }),
  ),
  withParams(PLUGIN_LIMITS, check('plugin_openapi_summary_length', ['PLUGIN-OPENAPI-SUMMARY-MAX200'], 'operation summaries are within the limit (200 characters; configurable)', (d, ctx) =>
    operationsOf(d).flatMap((o) => lengthFindings(o.op['summary'], `${o.pointer}/summary`, limitsOf(ctx).openapiSummary, `the summary of ${o.method.toUpperCase()} ${o.path}`)),
  )),
  withParams(PLUGIN_LIMITS, check('plugin_openapi_description_length', ['PLUGIN-OPENAPI-DESCRIPTION-MAX200'], 'operation descriptions are within the limit (200 characters; configurable)', (d, ctx) =>
    operationsOf(d).flatMap((o) => lengthFindings(o.op['description'], `${o.pointer}/description`, limitsOf(ctx).openapiDescription, `the description of ${o.method.toUpperCase()} ${o.path}`)),
  )),
  withParams(PLUGIN_LIMITS, check('plugin_openapi_parameter_description_length', ['PLUGIN-OPENAPI-PARAM-DESC-MAX200'], 'parameter descriptions are within the limit (200 characters; configurable)', (d, ctx) => {
    const seen = new Set<string>();
    return operationsOf(d).flatMap((o) =>
      o.parameters.flatMap(({ param, pointer }) => {
        if (seen.has(pointer)) return [];
        seen.add(pointer);
        return lengthFindings(param['description'], `${pointer}/description`, limitsOf(ctx).openapiParameterDescription, `the description of parameter ${show(param['name'])}`);
      }),
    );
  })),
  check('plugin_openapi_responses', ['PLUGIN-OPENAPI-RESPONSES'], 'every operation has responses; each response with content has a schema per media type', (d) =>
    operationsOf(d).flatMap((o) => {
      const responses = o.op['responses'];
      const label = `${o.method.toUpperCase()} ${o.path}`;
      if (!isObject(responses) || Object.keys(responses).length === 0) return [{ pointer: `${o.pointer}/responses`, message: `${label} has no responses`, expected: 'a responses object', actual: responses === undefined ? 'missing' : show(responses) }];
      const out: Finding[] = [];
      for (const [code, raw] of Object.entries(responses)) {
        const p = `${o.pointer}/responses/${escapeToken(code)}`;
        const res = deref(d, raw);
        if (!isObject(res)) continue;
        const content = res['content'];
        // A response without content returns no body: only responses that describe a body need schemas.
        if (content === undefined) continue;
        if (!isObject(content)) { out.push(typeFinding(`${p}/content`, 'an object', content)); continue; }
        for (const [media, mt] of Object.entries(content)) {
          if (!isObject(mt) || mt['schema'] === undefined) out.push({ pointer: `${p}/content/${escapeToken(media)}/schema`, message: `${label} response ${code} (${media}) has no schema`, expected: 'a schema', actual: 'missing' });
        }
      }
      return out;
    }),
  ),
  check('plugin_openapi_components', ['PLUGIN-OPENAPI-COMPONENTS'], 'components.schemas is an object', (d) => {
    const c = d['components'];
    if (!isObject(c)) return [typeFinding('/components', 'an object with schemas', c)];
    return isObject(c['schemas']) ? [] : [typeFinding('/components/schemas', 'an object', c['schemas'])];
  }),
  {
    ...check('plugin_openapi_enum', ['PLUGIN-OPENAPI-ENUM'], 'enum is allowed for restricted values (each enum is a non-empty list)', (d) => {
      const found: Array<{ pointer: string; value: unknown }> = [];
      enums(d, '', found);
      return found.flatMap((e) => (Array.isArray(e.value) && e.value.length > 0 ? [] : [{ pointer: e.pointer, message: `enum at ${e.pointer} is not a non-empty list`, expected: 'a non-empty array', actual: show(e.value) }]));
    }),
    skipWhen: (exchange: Exchange) => {
      const s = skipUnlessDocument(exchange);
      if (s) return s;
      const found: Array<{ pointer: string; value: unknown }> = [];
      enums(doc(exchange), '', found);
      return found.length ? undefined : 'the document uses no enum';
    },
  },
];
