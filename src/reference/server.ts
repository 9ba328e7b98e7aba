// node:http request pipeline: route -> (preflight | auth) -> body -> handler -> JSON or error.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from './accounts.ts';
import type { Caller } from './accounts.ts';
import type { App, Ctx } from './context.ts';
import { ApiError, invalidUrl } from './http-errors.ts';
import { readBody, sendError, sendJson } from './http-io.ts';
import { corsHeaders, preflight } from './plugin-host.ts';
import { Router } from './router.ts';
import { ROUTES } from './routes.ts';

const router = new Router(ROUTES);
const EMPTY = Buffer.alloc(0);
const NO_CALLER = undefined as unknown as Caller;

export function createRequestListener(app: App): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const latency = app.options.latencyMs;
    const answer = latency > 0 ? new Promise<void>((r) => setTimeout(r, latency)).then(() => handle(app, req, res)) : handle(app, req, res);
    answer.catch((err: unknown) => {
      const thrown = err instanceof ApiError ? err : new ApiError(500, `The server had an error while processing your request: ${String(err)}`, 'server_error');
      const apiError = thrown.status === 400 && app.reading('refusal-5xx') ? thrown.withStatus(500) : thrown;
      if (!res.headersSent) sendError(res, apiError, {}, apiError.status === 401 && app.fault('auth-error-not-wrapped'));
      else res.end();
    });
  };
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://reference.local');
  const path = url.pathname;
  const match = router.match(method, path);

  if (match.kind !== 'found') {
    if (method === 'OPTIONS' && match.kind === 'method-mismatch' && match.routes.some((r) => r.cors) && preflight(app, req, res)) return;
    drain(req);
    throw invalidUrl(method, path);
  }
  const { route, params } = match;
  const caller = route.public ? NO_CALLER : authenticate(req, {
    missingKeyAccepted: app.fault('missing-authorization-accepted') || (method === 'POST' && app.fault('post-without-authorization-accepted')),
    keyPrefixMatch: app.fault('api-key-prefix-match'),
    invalidKeyAccepted: app.fault('invalid-api-key-accepted'),
    foreignOrganizationAccepted: app.fault('foreign-organization-accepted'),
    anyScheme: app.fault('auth-scheme-ignored'),
  });
  const body = method === 'GET' || method === 'DELETE' ? await drainToEmpty(req) : await readBody(req);
  const ctx: Ctx = { app, req, res, method, path, query: url.searchParams, params, body, caller, fault: app.fault, reading: app.reading };
  try {
    const result = await route.handler(ctx);
    if (result !== undefined && !res.headersSent) sendJson(res, successStatus(app, method, route.cors), result, route.cors ? corsHeaders(app, req) : {});
  } catch (err) {
    if (route.cors && err instanceof ApiError && !res.headersSent) {
      sendError(res, err, corsHeaders(app, req));
      return;
    }
    throw err;
  }
}

/** The spec states no success code: a server may answer a POST of the API with 201 (a framework's default). */
function successStatus(app: App, method: string, pluginRoute: boolean | undefined): number {
  return method === 'POST' && !pluginRoute && app.reading('created-201') ? 201 : 200;
}

/** Bodies on GET/DELETE are ignored but must be consumed so keep-alive connections stay usable. */
async function drainToEmpty(req: IncomingMessage): Promise<Buffer> {
  await readBody(req);
  return EMPTY;
}

function drain(req: IncomingMessage): void {
  req.resume();
}
