import { setTimeout as sleep } from 'node:timers/promises';
import { call } from '@agentpay/proto';
import { systemClock } from '@agentpay/runtime';
import { waitFor } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';
import { createPayeeRegistry } from '../src/payees/payee.service.js';
import { createTransferService } from '../src/transfers/transfer.service.js';
import { connectRouter } from '../src/upstream/router.client.js';
import { CLABE, codeOf, merchant, opts, useTransfers } from './support/transfers.js';

// Creating a transfer (idempotent, concurrent, each router and ledger answer) and reading it back.

const fx = useTransfers();
const { router, ledger, logger, transferRequest, create, eventsOf, stubLedger } = fx;

describe('CreateTransfer', () => {
  it('creates a progress transfer with the fee of the merchant rate and the derived payee code', async () => {
    const { transfer, created } = await create(transferRequest());
    expect(created).toBe(true);
    expect(transfer).toMatchObject({
      status: 'progress',
      amount: '100000',
      // 1.5 % of 1000.00 plus 3.00
      fee: '1800',
      payee_code: '40002',
      mch_no: 'M1',
      app_id: 'app1',
      finish_time: '',
      version: '1',
    });
    expect(transfer?.transfer_no).toMatch(/^T\d{14}\d{12}$/);
    expect(router.submits).toEqual([
      expect.objectContaining({ transfer_no: transfer?.transfer_no, amount: '100000', payee_code: '40002' }),
    ]);
    const row = await fx.db
      .selectFrom('transfers')
      .selectAll()
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ route_id: 'route-a', upstream_ref: 'up-1', submission: 'accepted' });
    // Creation is not a status change: nothing for the merchant's callback yet.
    expect(await eventsOf(transfer!.transfer_no)).toEqual([]);
  });

  it('numbers transfers so that later ones sort after earlier ones', async () => {
    const first = await create(transferRequest());
    const second = await create(transferRequest());
    expect(second.transfer!.transfer_no > first.transfer!.transfer_no).toBe(true);
    expect(second.transfer!.transfer_no.length).toBeLessThanOrEqual(32);
  });

  it('answers a repeat with the existing transfer and no second submission', async () => {
    const req = transferRequest();
    const first = await create(req);
    const again = await create({ ...req, merchant: { ...merchant(), traceparent: '' } });
    expect(again).toEqual({ ...first, created: false });
    expect(router.submits).toHaveLength(1);
  });

  it('treats an omitted payee code and the derived one as the same request', async () => {
    const req = transferRequest();
    await create(req);
    const again = await create({ ...req, payee_code: '40002' });
    expect(again.created).toBe(false);
  });

  it('refuses the same bizTransferNo with other parameters as DUPLICATE_TRANSFER', async () => {
    const req = transferRequest();
    await create(req);
    expect(await codeOf(create({ ...req, amount: '100001' }))).toBe('DUPLICATE_TRANSFER');
    expect(await codeOf(create({ ...req, attach: 'x' }))).toBe('DUPLICATE_TRANSFER');
    expect(router.submits).toHaveLength(1);
  });

  it('keeps two merchants apart: the same bizTransferNo makes one transfer each', async () => {
    const req = transferRequest();
    const a = await create(req);
    const b = await create({ ...req, merchant: merchant('M2') });
    expect(b.created).toBe(true);
    expect(b.transfer!.transfer_no).not.toBe(a.transfer!.transfer_no);
  });

  it('creates exactly one transfer and one submission for 10 concurrent identical requests', async () => {
    router.onSubmit = async () => {
      await sleep(300);
      return { route_id: 'route-a', status: 'progress', upstream_ref: 'up-c' };
    };
    const req = transferRequest();
    const results = await Promise.all(Array.from({ length: 10 }, () => create(req)));
    expect(new Set(results.map((r) => r.transfer!.transfer_no)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results.every((r) => r.transfer!.status === 'progress')).toBe(true);
    expect(router.submits).toHaveLength(1);
    const rows = await fx.db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a bad account locally with INVALID_PAYEE_ACCOUNT, storing and sending nothing', async () => {
    const req = transferRequest({ payee_account: `${CLABE.slice(0, 17)}${(Number(CLABE[17]) + 1) % 10}` });
    expect(await codeOf(create(req))).toBe('INVALID_PAYEE_ACCOUNT');
    expect(await codeOf(create({ ...req, payee_account: CLABE, payee_code: '40012' }))).toBe(
      'INVALID_PAYEE_ACCOUNT',
    );
    expect(await codeOf(create({ ...req, payee_account: CLABE, payee_code: '012' }))).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect(await codeOf(create({ ...req, payee_type: 'paypal' }))).toBe('PAYEE_TYPE_NOT_AVAILABLE');
    expect(router.submits).toEqual([]);
    const stored = await fx.db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(stored).toEqual([]);
  });

  it('creates a synchronously rejected transfer as fail, finished, with no event', async () => {
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'fail', upstream_ref: 'up-r' });
    const { transfer } = await create(transferRequest());
    expect(transfer).toMatchObject({ status: 'fail', version: '1' });
    expect(transfer!.finish_time).not.toBe('');
    expect(await eventsOf(transfer!.transfer_no)).toEqual([]);
  });

  it('withdraws the submission when the router says nothing was created, so a retry can succeed', async () => {
    router.onSubmit = async () => {
      throw new AppError('UPSTREAM_UNAVAILABLE');
    };
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('UPSTREAM_UNAVAILABLE');
    router.onSubmit = async () => {
      throw new AppError('NO_UPSTREAM_ROUTE');
    };
    expect(await codeOf(create(req))).toBe('NO_UPSTREAM_ROUTE');
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'progress', upstream_ref: 'up-2' });
    const retried = await create(req);
    expect(retried).toMatchObject({ created: true, transfer: { status: 'progress' } });
    expect(router.submits).toHaveLength(3);
  });

  it('keeps a transfer whose submission timed out as progress with an unknown outcome', async () => {
    router.onSubmit = async () => {
      await sleep(2_500);
      return { route_id: 'route-a', status: 'progress', upstream_ref: 'late' };
    };
    const req = transferRequest();
    const { transfer } = await create(req);
    expect(transfer!.status).toBe('progress');
    const row = await fx.db
      .selectFrom('transfers')
      .selectAll()
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ submission: 'unknown', route_id: null });
    // A retry must not pay twice.
    expect((await create(req)).created).toBe(false);
    expect(router.submits).toHaveLength(1);
  });

  it('answers SERVICE_UNAVAILABLE and stores nothing when the router cannot be reached', async () => {
    const unreachable = connectRouter('127.0.0.1:1');
    const direct = createTransferService({
      db: fx.db,
      router: unreachable,
      logger,
      subject: 'unused',
      routerTimeoutMs: 1_000,
      ledger: stubLedger(),
      ledgerTimeoutMs: 1_000,
      compliance: fx.stubCompliance(),
      complianceTimeoutMs: 1_000,
      payees: createPayeeRegistry({ db: fx.db, clock: systemClock, coolingMs: 0 }),
      clock: systemClock,
    });
    const req = transferRequest();
    try {
      const merchant = {
        mchNo: 'M1',
        appId: 'app1',
        feeRate: { percentBps: 150, fixedCentavos: 300 },
        registeredPayeesOnly: false,
      };
      const transfer = {
        bizTransferNo: req.biz_transfer_no!,
        amount: Number(req.amount),
        title: req.title ?? '',
        reason: req.reason ?? '',
        payeeType: req.payee_type ?? '',
        payeeAccount: req.payee_account ?? '',
        payeeName: req.payee_name ?? '',
        payeeCode: req.payee_code ?? '',
        extraParam: '',
        attach: '',
        notifyUrl: req.notify_url ?? '',
      };
      const context = { traceparent: '', clientIp: '', deadline: Date.now() + 5_000 };
      await expect(direct.create(merchant, transfer, context)).rejects.toMatchObject({
        codeName: 'SERVICE_UNAVAILABLE',
      });
    } finally {
      unreachable.close();
    }
    const stored = await fx.db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('GetTransfer', () => {
  it('finds a transfer by either identifier, both only when they match, and only for its merchant', async () => {
    const { transfer } = await create(transferRequest());
    const t = transfer!;
    const get = (ref: { transfer_no?: string; biz_transfer_no?: string }, mchNo = 'M1') =>
      call(fx.client, fx.client.GetTransfer, { merchant: merchant(mchNo), ...ref }, opts);
    expect(await get({ transfer_no: t.transfer_no })).toEqual(t);
    expect(await get({ biz_transfer_no: t.biz_transfer_no })).toEqual(t);
    expect(await get({ transfer_no: t.transfer_no, biz_transfer_no: t.biz_transfer_no })).toEqual(t);
    expect(await codeOf(get({ transfer_no: t.transfer_no, biz_transfer_no: 'other' }))).toBe(
      'TRANSFER_NOT_FOUND',
    );
    expect(await codeOf(get({ transfer_no: t.transfer_no }, 'M2'))).toBe('TRANSFER_NOT_FOUND');
    expect(await codeOf(get({ biz_transfer_no: t.biz_transfer_no }, 'M2'))).toBe('TRANSFER_NOT_FOUND');
  });

  it('does not show a transfer still being submitted', async () => {
    let release = () => {};
    router.onSubmit = () =>
      new Promise((resolve) => {
        release = () => resolve({ route_id: 'route-a', status: 'progress', upstream_ref: 'x' });
      });
    const req = transferRequest();
    const pending = create(req);
    await waitFor(() => router.submits.length > 0);
    expect(
      await codeOf(
        call(
          fx.client,
          fx.client.GetTransfer,
          { merchant: merchant(), biz_transfer_no: req.biz_transfer_no },
          opts,
        ),
      ),
    ).toBe('TRANSFER_NOT_FOUND');
    release();
    await pending;
  });
});

describe('freezing through the ledger', () => {
  const holdOf = (transferNo: string) => ledger.holds.get(transferNo)?.status;

  it('freezes amount + fee before the router is called', async () => {
    ledger.available.set('M1', 1_000_000);
    const { transfer } = await create(transferRequest({ amount: '100000' }));
    // fee: 1.5 % of 1,000.00 + 3.00 = 18.00
    expect(ledger.available.get('M1')).toBe(1_000_000 - 100_000 - 1_800);
    expect(holdOf(transfer!.transfer_no)).toBe('frozen');
    expect(ledger.calls).toEqual([`freeze ${transfer!.transfer_no}`]);
  });

  it('answers INSUFFICIENT_BALANCE and creates nothing when the freeze does not fit; the key succeeds once funded', async () => {
    ledger.available.set('M1', 100_000);
    const req = transferRequest({ amount: '100000' });
    expect(await codeOf(create(req))).toBe('INSUFFICIENT_BALANCE');
    expect(router.submits).toHaveLength(0);
    const rows = await fx.db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(rows).toEqual([]);
    ledger.available.set('M1', 101_800);
    expect(await create(req)).toMatchObject({ created: true, transfer: { status: 'progress' } });
    expect(ledger.available.get('M1')).toBe(0);
  });

  it('answers SERVICE_UNAVAILABLE when the ledger fails, and removes the row only after voiding the freeze', async () => {
    ledger.fail = new AppError('SERVICE_UNAVAILABLE');
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('SERVICE_UNAVAILABLE');
    expect(router.submits).toHaveLength(0);
    const [freeze, voided] = ledger.calls;
    expect(freeze).toMatch(/^freeze T/);
    expect(voided).toBe(freeze!.replace('freeze', 'void'));
    const transferNo = freeze!.slice('freeze '.length);
    expect(
      await fx.db
        .selectFrom('transfers')
        .select('transfer_no')
        .where('transfer_no', '=', transferNo)
        .execute(),
    ).toEqual([]);
    ledger.fail = undefined;
    expect(await create(req)).toMatchObject({ created: true });
  });

  it('keeps the row for the sweep when neither Freeze nor VoidFreeze can be answered', async () => {
    ledger.fail = new AppError('SERVICE_UNAVAILABLE');
    ledger.failVoid = new AppError('SERVICE_UNAVAILABLE');
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('SERVICE_UNAVAILABLE');
    const row = await fx.db
      .selectFrom('transfers')
      .selectAll()
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'submitting', submission: 'voiding' });
    expect(router.submits).toHaveLength(0);
  });

  it('voids the freeze before withdrawing a submission the router refused', async () => {
    router.onSubmit = async () => {
      throw new AppError('NO_UPSTREAM_ROUTE');
    };
    expect(await codeOf(create(transferRequest()))).toBe('NO_UPSTREAM_ROUTE');
    const transferNo = ledger.calls[0]!.slice('freeze '.length);
    expect(ledger.calls).toEqual([`freeze ${transferNo}`, `void ${transferNo}`]);
    expect(holdOf(transferNo)).toBe('void');
  });

  it('withdraws a payout rejected synchronously whose freeze cannot be voided, leaving it to the sweep', async () => {
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'fail', upstream_ref: 'up-r' });
    ledger.failVoid = new AppError('SERVICE_UNAVAILABLE');
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('SERVICE_UNAVAILABLE');
    const row = await fx.db
      .selectFrom('transfers')
      .selectAll()
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'submitting', submission: 'voiding' });
    expect(ledger.frozen()).toContain(row.transfer_no);
  });

  it('voids the freeze of a payout rejected synchronously, which is created as fail without an event', async () => {
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'fail', upstream_ref: 'up-r' });
    const { transfer } = await create(transferRequest());
    expect(transfer!.status).toBe('fail');
    expect(holdOf(transfer!.transfer_no)).toBe('void');
  });
});
