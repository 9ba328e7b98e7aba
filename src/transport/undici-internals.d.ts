// Types of the undici modules src/transport/undici-core.ts and answer-handler.ts import by path (undici types only its index).
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
declare module 'undici/lib/core/util.js' {
  const util: {
    parseURL(url: string | URL): URL;
    /** Raw header pairs → lower-cased names; a repeated header an array of its values. */
    parseHeaders(rawHeaders: Buffer[]): Record<string, string | string[] | undefined>;
  };
  export default util;
}
