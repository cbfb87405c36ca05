import { describe, expect, it } from 'vitest';
import { checkAnswers } from './answers.js';
import { settledInput, T0 } from './fixtures.js';

const request = {
  target: 'gateway' as const,
  path: '/gateway/pay',
  mchNo: 'M1',
  startedAt: T0,
  endedAt: T0 + 10,
};

describe('checkAnswers', () => {
  it('passes signed envelopes with documented statuses, and connection errors while the gateway was killed', () => {
    const input = settledInput({
      requests: [
        { ...request, outcome: 'envelope', status: 503, code: 50003 },
        { ...request, outcome: 'connection', error: 'ECONNREFUSED' },
      ],
      faults: [{ name: 'kill -9 gateway', service: 'gateway', from: T0 - 100, to: T0 + 500 }],
    });
    expect(checkAnswers(input)).toEqual([]);
  });

  it('reports a hung request, an HTTP 500, an unsigned envelope and a connection error while the gateway was up', () => {
    const input = settledInput({
      requests: [
        { ...request, outcome: 'timeout' },
        { ...request, outcome: 'envelope', status: 500, code: 50000 },
        { ...request, outcome: 'unsigned', status: 200, code: 0 },
        { ...request, outcome: 'connection', error: 'ECONNRESET' },
      ],
      faults: [{ name: 'kill -9 gateway', service: 'gateway', from: T0 + 60_000, to: T0 + 61_000 }],
    });
    const violations = checkAnswers(input);
    expect(violations).toHaveLength(4);
    expect(violations[0]).toMatch(/hung/);
    expect(violations[1]).toMatch(/HTTP 500/);
    expect(violations[2]).toMatch(/does not verify/);
    expect(violations[3]).toMatch(/while its server was up/);
  });
});
