import type * as grpc from '@grpc/grpc-js';

/** Epoch ms at which the caller stops waiting for this call; Infinity when it set no deadline. */
export function deadlineOf(call: { getDeadline(): grpc.Deadline }): number {
  const deadline = call.getDeadline();
  return deadline instanceof Date ? deadline.getTime() : deadline;
}

/** Time left before `deadline` minus `marginMs`, capped at `capMs`; never negative. */
export function budgetMs(deadline: number, capMs: number, marginMs: number): number {
  return Math.max(0, Math.min(capMs, deadline - Date.now() - marginMs));
}
