// Shared preconditions and request reading of the embedding checks.

import type { Exchange } from '../../transport/types.ts';
import type { PlannedRequestView } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';

export function notAnEmbeddingResult(exchange: Exchange): string | undefined {
  const r = exchange.response;
  if (!r || r.status < 200 || r.status >= 300) return `not a success response (status ${r?.status ?? 'none'})`;
  if (!isRecord(r.json) || !Array.isArray(r.json.data)) return 'the body has no data array (see the schema result)';
  return undefined;
}

/**
 * How many inputs the request holds (Create embedding: "input | string, array of strings, array of
 * tokens, or array of token arrays"; "arrays give one embedding each"). A string or one array of
 * token ids is one input; an array of strings or of token arrays is one input per element.
 */
export function inputCount(request: PlannedRequestView): { count: number; form: string } | undefined {
  const input = isRecord(request.json) ? request.json.input : undefined;
  if (typeof input === 'string') return { count: 1, form: 'a string' };
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((v) => typeof v === 'number')) return { count: 1, form: 'an array of tokens' };
  if (input.every((v) => typeof v === 'string')) return { count: input.length, form: `an array of ${input.length} strings` };
  if (input.every((v) => Array.isArray(v))) return { count: input.length, form: `an array of ${input.length} token arrays` };
  return undefined;
}
