// The one error shape the service uses: {"error":{"message","type","param","code"}} with explicit nulls.

export type ErrorType = 'invalid_request_error' | 'server_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: ErrorType = 'invalid_request_error',
    readonly param: string | null = null,
    readonly code: string | null = null,
    /** Extra response headers, e.g. Retry-After for a loading model. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /** The same error answered with another status (a server that refuses with 500: readings.ts). */
  withStatus(status: number): ApiError {
    return new ApiError(status, this.message, this.type, this.param, this.code, this.headers);
  }

  toBody(): { error: { message: string; type: string; param: string | null; code: string | null } } {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** 400: a request field broke a rule. `param` names the field. */
export function invalidRequest(message: string, param: string | null = null, code: string | null = null): ApiError {
  return new ApiError(400, message, 'invalid_request_error', param, code);
}

export function unauthorized(message: string, code: string | null = 'invalid_api_key'): ApiError {
  return new ApiError(401, message, 'invalid_request_error', null, code);
}

export function forbidden(message: string, param: string | null = null): ApiError {
  return new ApiError(403, message, 'invalid_request_error', param, 'insufficient_permissions');
}

export function notFound(message: string, param: string | null = null, code: string | null = null): ApiError {
  return new ApiError(404, message, 'invalid_request_error', param, code);
}

export function modelNotFound(model: string): ApiError {
  return notFound(`The model '${model}' does not exist`, 'model', 'model_not_found');
}

/** Unknown route, as the real service words it: `Invalid URL (GET /v1/files/)`. */
export function invalidUrl(method: string, path: string): ApiError {
  return notFound(`Invalid URL (${method} ${path})`);
}

/** 503 for a fine-tuned model that is still loading; the spec says callers should retry later. */
export function modelLoading(model: string, retryAfterSeconds: number): ApiError {
  return new ApiError(
    503,
    `That model is still being loaded: ${model}. Please retry your request in a few seconds.`,
    'server_error',
    'model',
    'model_not_ready',
    { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
}
