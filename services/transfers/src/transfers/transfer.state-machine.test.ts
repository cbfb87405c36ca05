import { describe, expect, it } from 'vitest';
import {
  FINISHED,
  OUTCOME_PATHS,
  TRANSFER_STATUSES,
  type TransferStatus,
  transitionOf,
  UPSTREAM_OUTCOMES,
} from './transfer.state-machine.js';

const allowed = (from: TransferStatus) => TRANSFER_STATUSES.filter((to) => transitionOf(from, to));

describe('the transfer state machine', () => {
  it('allows exactly the moves of docs/merchant-api.md "Statuses", plus leaving the internal submitting state', () => {
    expect(Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, allowed(s)]))).toEqual({
      submitting: ['progress', 'fail'],
      progress: ['success', 'fail', 'close'],
      success: ['close'],
      fail: [],
      close: [],
    });
  });

  it('never returns to submitting or progress, and has no self-loops', () => {
    for (const from of TRANSFER_STATUSES) {
      expect(transitionOf(from, 'submitting')).toBeUndefined();
      expect(transitionOf(from, from)).toBeUndefined();
      if (from !== 'submitting') expect(transitionOf(from, 'progress')).toBeUndefined();
    }
  });

  it('announces every change a merchant can observe and not the creation', () => {
    expect(transitionOf('submitting', 'progress')?.announce).toBe(false);
    expect(transitionOf('submitting', 'fail')?.announce).toBe(false);
    for (const from of ['progress', 'success'] as const)
      for (const to of allowed(from)) expect(transitionOf(from, to)?.announce, `${from}→${to}`).toBe(true);
  });

  it('finishes a transfer on success, fail and close only', () => {
    expect(TRANSFER_STATUSES.filter((s) => FINISHED.has(s))).toEqual(['success', 'fail', 'close']);
  });
});

describe('upstream outcomes', () => {
  it('only walk allowed transitions', () => {
    for (const outcome of UPSTREAM_OUTCOMES) {
      for (const [from, path] of Object.entries(OUTCOME_PATHS[outcome])) {
        if (path === 'done') continue;
        let at = from as TransferStatus;
        for (const to of path) {
          expect(transitionOf(at, to), `${outcome}: ${at}→${to}`).toBeDefined();
          at = to;
        }
      }
    }
  });

  it('map each current status as the README states', () => {
    expect(OUTCOME_PATHS.success).toEqual({ progress: ['success'], success: 'done', close: 'done' });
    expect(OUTCOME_PATHS.fail).toEqual({ progress: ['fail'], fail: 'done' });
    expect(OUTCOME_PATHS.returned).toEqual({
      progress: ['success', 'close'],
      success: ['close'],
      close: 'done',
    });
  });

  it('never act on a transfer still submitting', () => {
    for (const outcome of UPSTREAM_OUTCOMES) expect(OUTCOME_PATHS[outcome].submitting).toBeUndefined();
  });
});
