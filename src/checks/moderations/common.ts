// Shared preconditions of the moderation checks.

import type { Exchange } from '../../transport/types.ts';
import { isRecord } from '../../util/json-type.ts';

/** Resources / Moderation result: "Category names (exact)". */
export const MODERATION_CATEGORIES = ['hate', 'hate/threatening', 'self-harm', 'sexual', 'sexual/minors', 'violence', 'violence/graphic'] as const;

export function notAModerationResult(exchange: Exchange): string | undefined {
  const r = exchange.response;
  if (!r || r.status < 200 || r.status >= 300) return `not a success response (status ${r?.status ?? 'none'})`;
  if (!isRecord(r.json) || !Array.isArray(r.json.results)) return 'the body has no results array (see the schema result)';
  return undefined;
}

export function resultsOf(exchange: Exchange): Array<{ pointer: string; result: Record<string, unknown> }> {
  const results = (exchange.response!.json as { results: unknown[] }).results;
  return results.flatMap((r, i) => (isRecord(r) ? [{ pointer: `/results/${i}`, result: r }] : []));
}
