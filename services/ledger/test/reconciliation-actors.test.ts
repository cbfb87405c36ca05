import { call, originMetadata } from '@agentpay/proto';
import { describe, expect, it } from 'vitest';
import { bookEvent } from '../src/events/status-changed.handler.js';
import { payEvent } from './support/events.js';
import { DAY, NOON, useReconciliation } from './support/reconciliation.js';
import { line, statementKey } from './support/statement-router.js';

// Who resolves: the person and the approval the call names, on the resolution and the entry.

const t = useReconciliation();
const { deps, run, discrepanciesOf } = t;

describe('who resolves', () => {
  const R = 'r-actor';

  it("records the person the call names (not the free-text operator) and the approval on the resolution and the credit's entry", async () => {
    await bookEvent(
      deps(),
      payEvent('MR7', 'RA-P1', { to: 'close', version: 3, routeId: R, amount: 70_000 }),
    );
    t.router.statements.set(statementKey(R, DAY), {
      lines: [line({ kind: 'deposit', platform_ref: 'RA-P1', amount: 7_001, at: NOON })],
    });
    await run(R);
    const [d] = await discrepanciesOf(R);
    if (!d) throw new Error('no discrepancy');
    const metadata = originMetadata({
      actor: { id: 'user:ana', label: 'ana@ops.example', roles: ['reconciliation'] },
      approvalId: 'apr_resolve_1',
    });
    const resolved = await call(
      t.client,
      t.client.ResolveDiscrepancy,
      { id: d.id, action: 'credit', reason: 'ours', operator: 'typed by hand', mch_no: '' },
      { metadata },
    );
    expect(resolved).toMatchObject({
      state: 'resolved',
      resolution_operator: 'ana@ops.example',
      resolution_approval_id: 'apr_resolve_1',
    });
    const origin = await t.db
      .selectFrom('entry_origins')
      .selectAll()
      .where('entry_key', '=', `credit:${d.id}`)
      .executeTakeFirstOrThrow();
    expect(origin).toMatchObject({
      actor_id: 'user:ana',
      actor_label: 'ana@ops.example',
      approval_id: 'apr_resolve_1',
    });
  });
});
