// Files: "purpose ... `fine-tune` makes the service validate the format, each line needing prompt and completion".

import type { Exchange } from '../../transport/types.ts';
import type { ResponseCheck } from '../types.ts';
import { isRefusal } from '../expectations.ts';
import { finding } from './support.ts';
import { isSuccess } from '../../util/status.ts';

/** The upload of a fine-tune file (POST /v1/files with purpose fine-tune), as opposed to the create that names it. */
const isUpload = (exchange: Exchange): boolean => exchange.request.method === 'POST' && new URL(exchange.request.url).pathname.endsWith('/files');

/**
 * "fine-tune makes the service validate the format, each line needing prompt and completion": the service refuses
 * an invalid file, at upload or before a job can use it. An upload that was accepted is judged by the create that
 * names the file (the next case): that refusal is the rule's.
 */
export const fileInvalidJsonlRefused: ResponseCheck = {
  kind: 'response',
  name: 'file_invalid_jsonl_refused',
  appliesTo: 'any',
  requirements: ['FILE-FINE-TUNE-VALIDATION'],
  severity: 'must',
  summary: 'a fine-tune file with an invalid line is refused, at upload or when a job names it',
  skipWhen: (exchange) => {
    const status = exchange.response?.status;
    return isSuccess(status) && isUpload(exchange) ? 'accepted at upload: the create request that names the file must refuse it' : undefined;
  },
  run: (exchange) => {
    const status = exchange.response?.status;
    return status !== undefined && isRefusal(status, exchange.response?.json) ? [] : [finding('', 'a fine-tune file with an invalid line was not refused', 'a refusal', status ?? 'no response')];
  },
};

/** The service validates at upload (the reading of the upload row); validating before use conforms too. */
export const fileInvalidJsonlRefusedAtUpload: ResponseCheck = {
  kind: 'response',
  name: 'file_invalid_jsonl_refused_at_upload',
  appliesTo: 'any',
  requirements: ['FILE-FINE-TUNE-VALIDATION-AT-UPLOAD'],
  severity: 'should',
  summary: 'a fine-tune file with an invalid line is refused at upload (the service\'s convention)',
  run: (exchange) => {
    const status = exchange.response?.status;
    return status !== undefined && isRefusal(status, exchange.response?.json) ? [] : [finding('', 'the invalid file was accepted at upload', 'a refusal', status ?? 'no response')];
  },
};

