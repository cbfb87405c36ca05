import { describe, expect, it } from 'vitest';
import { createBreakers } from './circuit-breaker.js';

function setup(overrides: { failureThreshold?: number; windowMs?: number; coolDownMs?: number } = {}) {
  let clock = 1_000_000;
  const breakers = createBreakers({
    failureThreshold: 3,
    windowMs: 10_000,
    coolDownMs: 5_000,
    ...overrides,
    now: () => clock,
  });
  const fail = (id = 'r') => breakers.enter(id)!.failed();
  const succeed = (id = 'r') => breakers.enter(id)!.succeeded();
  return {
    breakers,
    fail,
    succeed,
    advance(ms: number) {
      clock += ms;
    },
    state: (id = 'r') => breakers.snapshot(id).state,
  };
}

describe('circuit breaker', () => {
  it('a route never seen is closed and admitted', () => {
    const { breakers } = setup();
    expect(breakers.admits('new')).toBe(true);
    expect(breakers.snapshot('new')).toMatchObject({ state: 'closed', recentFailures: 0, failuresTotal: 0 });
    expect(breakers.enter('new')).toBeDefined();
  });

  it('opens after the threshold of consecutive failures and keeps the route out', () => {
    const t = setup();
    t.fail();
    t.fail();
    expect(t.state()).toBe('closed');
    expect(t.breakers.admits('r')).toBe(true);
    t.fail();
    expect(t.state()).toBe('open');
    expect(t.breakers.admits('r')).toBe(false);
    expect(t.breakers.enter('r')).toBeUndefined();
    expect(t.breakers.snapshot('r')).toMatchObject({
      recentFailures: 3,
      failuresTotal: 3,
      openedAt: expect.any(Date),
      retryAt: expect.any(Date),
    });
  });

  it('a success in between starts the count again', () => {
    const t = setup();
    t.fail();
    t.fail();
    t.succeed();
    t.fail();
    t.fail();
    expect(t.state()).toBe('closed');
    expect(t.breakers.snapshot('r').recentFailures).toBe(2);
  });

  it('failures older than the window do not count (rolling window)', () => {
    const t = setup();
    t.fail();
    t.fail();
    t.advance(10_001);
    t.fail();
    expect(t.state()).toBe('closed');
    expect(t.breakers.snapshot('r').recentFailures).toBe(1);
    t.advance(2_000);
    t.fail();
    t.fail();
    expect(t.state()).toBe('open');
  });

  it('after the cool-down lets exactly one probe through; its success closes the breaker', () => {
    const t = setup();
    for (let i = 0; i < 3; i++) t.fail();
    t.advance(4_999);
    expect(t.breakers.enter('r')).toBeUndefined();
    t.advance(1);
    expect(t.state()).toBe('half_open');
    expect(t.breakers.admits('r')).toBe(true);
    const probe = t.breakers.enter('r');
    expect(probe).toBeDefined();
    // While the probe is out, nobody else gets through and selection leaves the route out.
    expect(t.breakers.enter('r')).toBeUndefined();
    expect(t.breakers.admits('r')).toBe(false);
    probe!.succeeded();
    expect(t.state()).toBe('closed');
    expect(t.breakers.snapshot('r')).toMatchObject({ recentFailures: 0, openedAt: undefined });
    expect(t.breakers.enter('r')).toBeDefined();
  });

  it('a failed probe opens the breaker for another full cool-down', () => {
    const t = setup();
    for (let i = 0; i < 3; i++) t.fail();
    t.advance(5_000);
    t.breakers.enter('r')!.failed();
    expect(t.state()).toBe('open');
    t.advance(4_999);
    expect(t.breakers.enter('r')).toBeUndefined();
    t.advance(1);
    expect(t.breakers.enter('r')).toBeDefined();
  });

  it('only the probe closes an open breaker: a late success of an earlier call does not', () => {
    const t = setup();
    const early = t.breakers.enter('r')!;
    for (let i = 0; i < 3; i++) t.fail();
    early.succeeded();
    expect(t.state()).toBe('open');
    expect(t.breakers.snapshot('r').successesTotal).toBe(1);
  });

  it('late failures of earlier calls do not push the reopening back', () => {
    const t = setup();
    const early = t.breakers.enter('r')!;
    for (let i = 0; i < 3; i++) t.fail();
    t.advance(3_000);
    early.failed();
    t.advance(2_000);
    expect(t.state()).toBe('half_open');
    expect(t.breakers.snapshot('r').failuresTotal).toBe(4);
  });

  it('a pass reports once: a second report is ignored', () => {
    const t = setup({ failureThreshold: 2 });
    const pass = t.breakers.enter('r')!;
    pass.failed();
    pass.failed();
    expect(t.state()).toBe('closed');
    expect(t.breakers.snapshot('r').failuresTotal).toBe(1);
  });

  it('keeps each route apart', () => {
    const t = setup();
    for (let i = 0; i < 3; i++) t.fail('a');
    expect(t.state('a')).toBe('open');
    expect(t.state('b')).toBe('closed');
    expect(t.breakers.admits('b')).toBe(true);
  });

  it('reset closes the breaker at once', () => {
    const t = setup();
    for (let i = 0; i < 3; i++) t.fail();
    t.breakers.reset('r');
    expect(t.state()).toBe('closed');
    expect(t.breakers.enter('r')).toBeDefined();
  });

  it('counts skips', () => {
    const t = setup();
    t.breakers.skipped('r');
    t.breakers.skipped('r');
    expect(t.breakers.snapshot('r').skippedTotal).toBe(2);
  });
});
