// Shared preconditions of the image-result checks.

import type { Exchange } from '../../transport/types.ts';
import { isRecord } from '../../util/json-type.ts';

/** Image-result checks apply to accepted requests with a JSON body that has a data array. */
export function notAnImageResult(exchange: Exchange): string | undefined {
  const r = exchange.response;
  if (!r || r.status < 200 || r.status >= 300) return `not a success response (status ${r?.status ?? 'none'})`;
  if (!isRecord(r.json) || !Array.isArray(r.json.data)) return 'the body has no data array (see the schema result)';
  return undefined;
}
