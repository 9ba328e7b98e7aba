// Fine-tuned model names. Spec, Resources / Fine-tuned model name:
// "Pattern: `<base_model>:ft-<organization>:<suffix>-<timestamp>`; the suffix part is present only when
// a suffix was given." The organization part is free text (the real service uses `personal`,
// `user-…`, org slugs); the timestamp's format is not given (the service writes YYYY-MM-DD-HH-MM-SS).

import type { Exchange } from '../../transport/types.ts';
import type { CheckContext, Finding, ResponseCheck, Severity } from '../types.ts';
import { bodyOf, finding, unlessOkJson } from '../files/support.ts';
import { baseOf, createRequestOf, requestedSuffix, unlessCreateKnown } from './jobs.ts';
import { CREATE_CASE } from '../params.ts';

/** A loose timestamp: starts with a digit, only digits and separators. */
const LOOSE_TIMESTAMP = /^\d[\dTZ:._-]*$/;
const SERVICE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}$/;

export interface NameParts {
  base: string;
  organization: string;
  suffix?: string;
  timestamp: string;
}

/**
 * Split a name by the pattern for a known base model and requested suffix; a string says what is wrong.
 * Without a suffix the organization is everything up to the last "-<timestamp>".
 */
export function parseFineTunedName(name: string, base: string, suffix: string | undefined): NameParts | string {
  const prefix = `${base}:ft-`;
  if (!name.startsWith(prefix)) return `does not start with "${prefix}" (the base model, then ":ft-")`;
  const rest = name.slice(prefix.length);
  if (suffix !== undefined) {
    const marker = `:${suffix}-`;
    const at = rest.lastIndexOf(marker);
    if (at < 0) return `has no ":${suffix}-" part (the requested suffix, then "-<timestamp>")`;
    const organization = rest.slice(0, at);
    const timestamp = rest.slice(at + marker.length);
    if (organization === '') return 'has no organization between ":ft-" and the suffix';
    if (!LOOSE_TIMESTAMP.test(timestamp)) return `does not end with a timestamp after the suffix (got "${timestamp}")`;
    return { base, organization, suffix, timestamp };
  }
  // Shortest organization whose remainder is a timestamp: "ref-main-2023-02-18-22-17-49" → ref-main | 2023-…. A
  // colon is a suffix's mark only before the timestamp: an ISO 8601 timestamp holds colons of its own.
  for (let i = rest.indexOf('-'); i > 0; i = rest.indexOf('-', i + 1)) {
    const timestamp = rest.slice(i + 1);
    if (!LOOSE_TIMESTAMP.test(timestamp) || !/^\d{2,}/.test(timestamp)) continue;
    const organization = rest.slice(0, i);
    return organization.includes(':') ? 'has a ":<suffix>" part although no suffix was given' : { base, organization, timestamp };
  }
  if (rest.includes(':')) return 'has a ":<suffix>" part although no suffix was given';
  return 'does not end with "-<timestamp>" after the organization';
}

type Part = 'pattern' | 'suffix' | 'no-suffix' | 'timestamp';

function nameCheck(name: string, part: Part, requirements: string[], severity: Severity, summary: string): ResponseCheck {
  const skip = (exchange: Exchange, ctx: CheckContext): string | undefined => {
    const why = unlessOkJson(exchange) ?? unlessCreateKnown(ctx);
    if (why) return why;
    const body = bodyOf(exchange)!;
    if (body.status !== 'succeeded') return `the job is ${String(body.status)}; it names no model until it has succeeded`;
    const suffix = requestedSuffix(createRequestOf(ctx));
    if (part === 'suffix' && suffix === undefined) return 'the job was created without a suffix';
    if (part === 'no-suffix' && suffix !== undefined) return 'the job was created with a suffix';
    return undefined;
  };
  return {
    kind: 'response',
    name,
    requirements,
    severity,
    summary: `${summary} (with: create, when not the create response)`,
    params: CREATE_CASE,
    skipWhen: skip,
    run: (exchange, ctx): Finding[] => {
      const body = bodyOf(exchange)!;
      const model = body.fine_tuned_model;
      if (typeof model !== 'string') return [finding('/fine_tuned_model', 'a succeeded job names its fine-tuned model', '<base_model>:ft-<organization>[:<suffix>]-<timestamp>', model ?? 'absent')];
      const create = createRequestOf(ctx)!;
      const base = baseOf(typeof body.model === 'string' ? body.model : typeof create.model === 'string' ? create.model : 'curie');
      const suffix = requestedSuffix(create);
      const parts = parseFineTunedName(model, base, suffix);
      const pattern = suffix === undefined ? `${base}:ft-<organization>-<timestamp>` : `${base}:ft-<organization>:${suffix}-<timestamp>`;
      if (typeof parts === 'string') {
        // Each check reports the part it is about; the general pattern check reports any mismatch.
        const mine = part === 'pattern' || (part === 'suffix' && /suffix/.test(parts)) || (part === 'no-suffix' && /suffix/.test(parts));
        return mine ? [finding('/fine_tuned_model', `the name ${parts}`, pattern, model)] : [];
      }
      if (part === 'timestamp' && !SERVICE_TIMESTAMP.test(parts.timestamp)) {
        return [finding('/fine_tuned_model', `the timestamp "${parts.timestamp}" is not in the service's YYYY-MM-DD-HH-MM-SS form`, 'e.g. 2023-02-18-22-17-49', parts.timestamp)];
      }
      return [];
    },
  };
}

export const NAME_CHECKS: readonly ResponseCheck[] = [
  nameCheck('ft_fine_tuned_model_name', 'pattern', ['FT-STATE-SUCCEEDED-MODEL', 'FT-NAME-PATTERN'], 'must', 'a succeeded job\'s fine_tuned_model is <base_model>:ft-<organization>[:<suffix>]-<timestamp>'),
  nameCheck('ft_name_has_suffix', 'suffix', ['FT-SUFFIX-IN-NAME'], 'must', 'with a suffix, the name is <base>:ft-<organization>:<suffix>-<timestamp>'),
  nameCheck('ft_name_without_suffix', 'no-suffix', ['FT-NAME-NO-SUFFIX'], 'must', 'without a suffix, the name has no ":<suffix>" part'),
  nameCheck('ft_name_timestamp_format', 'timestamp', ['FT-NAME-TIMESTAMP-FORMAT'], 'should', 'the timestamp is YYYY-MM-DD-HH-MM-SS, as the service writes it (the format is not given)'),
];
