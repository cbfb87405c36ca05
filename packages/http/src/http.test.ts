import { createLogger } from '@agentpay/logger';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './index.js';

describe('createHttpServer', () => {
  it('logs through the service logger without a child per request, and honours a route log level', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger(
      { service: 'http-test', level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const app = createHttpServer(logger);
    let sameLogger = false;
    app.get('/loud', async (request) => {
      sameLogger = request.log === app.log;
      request.log.info({ step: 'loud' }, 'handled');
      return { ok: true };
    });
    app.get('/quiet', { logLevel: 'silent' }, async (request) => {
      request.log.info({ step: 'quiet' }, 'handled');
      return { ok: true };
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/loud' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
      expect(sameLogger).toBe(true);
      // Only the handler's own line: no per-request lines, and nothing from the silent route.
      expect(lines.map((l) => [l['msg'], l['step'], l['service']])).toEqual([
        ['handled', 'loud', 'http-test'],
      ]);
    } finally {
      await app.close();
    }
  });
});
