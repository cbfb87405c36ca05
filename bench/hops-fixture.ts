/** A pay order as payments answers it to the gateway (the larger of a create-pay's gRPC messages). */
export const PAY_ORDER = {
  order_no: 'P20261121101500000000000123',
  mch_no: 'M100200300',
  biz_order_no: 'B3f9a1c2d4e5f60718293',
  title: 'Benchmark order',
  method: 'mex_virtual_account',
  amount: '10050',
  fee: '0',
  real_amount: '10050',
  status: 'wait',
  settle_status: 'not_settle',
  settle_type: 'D+1',
  expired_time: '2026-11-22 10:15:00',
  pay_body: JSON.stringify({
    clabe: '646180157000000123',
    bankCode: '90646',
    bankName: 'STP',
    beneficiaryName: 'AGENTPAY SANDBOX',
    amount: '100.50',
    expiredTime: '2026-11-22 10:15:00',
    reference: '0000123',
  }),
};

/** What the router sends the channel to open a virtual account. */
export const OPEN_ACCOUNT = {
  orderRef: 'P20261121101500000000000123',
  amount: 10050,
  expiresAt: '2026-11-22T16:15:00.000Z',
  noticeUrl: 'http://upstream-router:8082/notices/sandbox-default',
};
