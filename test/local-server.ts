// A throwaway HTTP target on 127.0.0.1 for tests whose answers are fixed by the test itself: the handler is
// called once the request body has been read.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface LocalServer { url: string; close(): Promise<void> }

export async function localServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
