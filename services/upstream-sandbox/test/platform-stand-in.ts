import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedNotice {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** HTTP status the stand-in answered. */
  answered: number;
}

/**
 * A real HTTP server standing in for the platform's notice endpoint. It records every delivery and
 * answers 200, or, for paths given to `failNext`, 500 that many times first.
 */
export async function startPlatformStandIn() {
  const received: ReceivedNotice[] = [];
  const failures = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const left = failures.get(path) ?? 0;
      const answered = left > 0 ? 500 : 200;
      if (left > 0) failures.set(path, left - 1);
      received.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered,
      });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    /** Deliveries to one path, in arrival order. */
    at: (path: string) => received.filter((r) => r.path === path),
    failNext(path: string, times: number) {
      failures.set(path, times);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
