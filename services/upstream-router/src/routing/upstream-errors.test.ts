import { createLogger } from '@agentpay/logger';
import { AppError } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../adapters/channel-adapter.js';
import { toAppError } from './upstream-errors.js';

const logger = createLogger({ service: 'upstream-router', level: 'silent' });
const context = { logger, operation: 'CreateVirtualAccount', routeId: 'sandbox-default' };

describe('toAppError', () => {
  it('answers 50003 when the router lost its own Postgres mid-call: nothing was opened, retry', () => {
    // What pg throws when Postgres crashes under a query the create was running (seen in the fault run).
    expect(toAppError(new Error('Connection terminated unexpectedly'), context).codeName).toBe(
      'SERVICE_UNAVAILABLE',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toAppError(refused, context).codeName).toBe('SERVICE_UNAVAILABLE');
    const shutdown = Object.assign(new Error('terminating connection'), { code: '57P01' });
    expect(toAppError(shutdown, context).codeName).toBe('SERVICE_UNAVAILABLE');
  });

  it('keeps a channel that cannot answer as upstream unavailable, an app error as it is, and the rest internal', () => {
    expect(toAppError(new UpstreamUnavailableError('HTTP 503'), context).codeName).toBe(
      'UPSTREAM_UNAVAILABLE',
    );
    expect(toAppError(new AppError('ORDER_NOT_FOUND'), context).codeName).toBe('ORDER_NOT_FOUND');
    expect(toAppError(new TypeError('x is undefined'), context).codeName).toBe('INTERNAL_ERROR');
  });
});
