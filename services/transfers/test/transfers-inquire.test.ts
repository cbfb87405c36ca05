import { setTimeout as sleep } from 'node:timers/promises';
import { call } from '@agentpay/proto';
import { uniqueName } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';
import { CLABE, codeOf, merchant, opts, useTransfers } from './support/transfers.js';

// Payee inquiries: the router's verdict, stored once per bizInquryNo.

const t = useTransfers();
const { router } = t;

describe('Inquire', () => {
  const inquire = (over: Record<string, unknown> = {}) =>
    call(
      t.client,
      t.client.Inquire,
      {
        merchant: merchant(),
        biz_inqury_no: 'Q1',
        payee_type: 'spei_transfer',
        payee_account: CLABE,
        payee_name: 'Ana',
        ...over,
      },
      opts,
    );

  it('answers the router verdict with the derived code sent upstream, and stores it', async () => {
    const biz = uniqueName('q');
    const first = await inquire({ biz_inqury_no: biz });
    expect(first).toMatchObject({
      biz_inqury_no: biz,
      status: 'valid',
      account_valid: true,
      upload_payee_name: 'Ana',
    });
    expect(first.inqury_no).toMatch(/^I\d{26}$/);
    expect(router.inquiries).toEqual([expect.objectContaining({ payee_code: '40002', mch_no: 'M1' })]);
    router.onInquire = async () => ({ status: 'invalid' });
    expect(await inquire({ biz_inqury_no: biz })).toEqual(first);
    expect(router.inquiries).toHaveLength(1);
    expect(await codeOf(inquire({ biz_inqury_no: biz, payee_name: 'Other' }))).toBe('DUPLICATE_INQUIRY');
  });

  it('answers unknown as not valid', async () => {
    router.onInquire = async () => ({ status: 'unknown' });
    expect(await inquire({ biz_inqury_no: uniqueName('q') })).toMatchObject({
      status: 'unknown',
      account_valid: false,
    });
  });

  it('answers invalid for a bad account format without asking upstream', async () => {
    const result = await inquire({ biz_inqury_no: uniqueName('q'), payee_account: '002010077777777772' });
    expect(result).toMatchObject({ status: 'invalid', account_valid: false });
    expect(router.inquiries).toEqual([]);
  });

  it('stores nothing when the router fails, so the same bizInquryNo can be retried', async () => {
    const biz = uniqueName('q');
    router.onInquire = async () => {
      throw new AppError('UPSTREAM_UNAVAILABLE');
    };
    expect(await codeOf(inquire({ biz_inqury_no: biz }))).toBe('UPSTREAM_UNAVAILABLE');
    router.onInquire = async () => ({ status: 'valid' });
    expect(await inquire({ biz_inqury_no: biz })).toMatchObject({ status: 'valid' });
  });

  it('answers concurrent identical inquiries with one stored result', async () => {
    const biz = uniqueName('q');
    router.onInquire = async () => {
      await sleep(100);
      return { status: 'valid' };
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => inquire({ biz_inqury_no: biz })));
    expect(new Set(results.map((r) => r.inqury_no)).size).toBe(1);
  });

  it('refuses an unknown payee type or a raw code as errors, not as invalid', async () => {
    expect(await codeOf(inquire({ biz_inqury_no: uniqueName('q'), payee_type: 'paypal' }))).toBe(
      'PAYEE_TYPE_NOT_AVAILABLE',
    );
    expect(await codeOf(inquire({ biz_inqury_no: uniqueName('q'), payee_code: '012' }))).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
  });
});
