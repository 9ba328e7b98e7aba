// HTTP status classes, said once: what counts as a success, a client's refusal, and the class a check judges.

/** A success: 2xx, whatever the code (the spec states none). */
export function isSuccess(status: number | undefined): status is number {
  return status !== undefined && status >= 200 && status < 300;
}

/** A caller's mistake, refused: 4xx. */
export function isClientError(status: number | undefined): status is number {
  return status !== undefined && status >= 400 && status < 500;
}

/** The class of an answer, as checks name the class they judge: a success, a client error, or anything else. */
export function statusClass(status: number | undefined): '2xx' | '4xx' | 'other' {
  return isSuccess(status) ? '2xx' : isClientError(status) ? '4xx' : 'other';
}
