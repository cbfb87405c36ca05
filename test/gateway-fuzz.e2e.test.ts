import type { Stack } from '@agentpay/stack';
import { Codes } from '@agentpay/wire';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, type Reply, type TestMerchant } from './support/merchant-client.js';
import { startTestStack } from './support/stack.js';

// Issue 9, bad input: random and mutated bodies against the real gateway. Whatever arrives, the reply is
// a signed envelope with a documented code and HTTP status; nothing crashes and nothing answers 500.

const ROUTES = [
  '/gateway/pay',
  '/gateway/options/pay-methods',
  '/gateway/options/payee-types',
  '/gateway/options/payee-codes',
  '/gateway/close',
  '/gateway/inqury',
  '/gateway/transfer',
  '/gateway/query/payOrder',
  '/gateway/query/transferOrder',
  '/gateway/sync/order/pay',
];
const DOCUMENTED_STATUS = new Set([200, 400, 404, 405, 413, 415, 429, 503]);
const DOCUMENTED_CODES = new Set<number>(Object.values(Codes).map((c) => c.code));

let stack: Stack;
let merchant: TestMerchant;
/** bizOrderNo of every pay the gateway accepted (code 0). */
const accepted = new Set<string>();

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
});

afterAll(async () => {
  await stack?.stop();
});

function expectWellFormed(reply: Reply): void {
  expect(DOCUMENTED_STATUS.has(reply.status), `HTTP ${reply.status}`).toBe(true);
  expect(reply.signed, 'reply signature').toBe(true);
  expect(DOCUMENTED_CODES.has(reply.envelope.code), `code ${reply.envelope.code}`).toBe(true);
  expect(reply.envelope.code).not.toBe(Codes.INTERNAL_ERROR.code);
  expect(typeof reply.envelope.msg).toBe('string');
  expect(reply.envelope.traceId).toMatch(/^[0-9a-f]{32}$/);
  if (reply.envelope.code !== 0) expect(reply.envelope.data).toBeNull();
}

const route = fc.constantFrom(...ROUTES);
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ minLength: 90, maxLength: 3000 }),
);
const anyValue = fc.oneof(
  text,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer()),
  // JSON-representable only: a signed body must survive JSON (no Infinity, NaN or undefined inside).
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue()),
);

/** A plausible signed business body for a route, then mutated: fields dropped, retyped, enlarged, added. */
const mutatedParams = fc.record({
  bizOrderNo: fc.option(text, { nil: undefined }),
  bizTransferNo: fc.option(text, { nil: undefined }),
  bizInquryNo: fc.option(text, { nil: undefined }),
  title: fc.option(anyValue, { nil: undefined }),
  method: fc.option(fc.oneof(fc.constant('mex_virtual_account'), text), { nil: undefined }),
  amount: fc.option(
    fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.constant(0.01),
      fc.constant(100.5),
      text,
    ),
    { nil: undefined },
  ),
  payeeType: fc.option(fc.oneof(fc.constantFrom('spei_transfer', 'bank_card', 'user_id'), text), {
    nil: undefined,
  }),
  payeeAccount: fc.option(fc.oneof(fc.stringMatching(/^\d{18}$/), text), { nil: undefined }),
  payeeCode: fc.option(fc.oneof(fc.constantFrom('40012', '012'), text), { nil: undefined }),
  orderNo: fc.option(anyValue, { nil: undefined }),
  useCancel: fc.option(anyValue, { nil: undefined }),
  expiredTime: fc.option(fc.oneof(fc.constant('2099-01-01 00:00:00'), text), { nil: undefined }),
  notifyUrl: fc.option(fc.oneof(fc.constant('http://127.0.0.1:1/cb'), text), { nil: undefined }),
  extraParam: fc.option(fc.oneof(fc.constant('{"a":1}'), text), { nil: undefined }),
  extra: fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), anyValue), { nil: undefined }),
});

describe('the gateway under random input', () => {
  it('answers any JSON value on any route with a signed, documented envelope', async () => {
    await fc.assert(
      fc.asyncProperty(route, fc.jsonValue(), async (path, body) => {
        expectWellFormed(await merchant.send(path, body));
      }),
      { numRuns: 150 },
    );
  });

  it('answers raw bytes of any content type with a signed, documented envelope', async () => {
    const contentType = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    );
    await fc.assert(
      fc.asyncProperty(route, contentType, fc.string({ maxLength: 500 }), async (path, type, raw) => {
        expectWellFormed(await merchant.send(path, null, { raw, contentType: type }));
      }),
      { numRuns: 100 },
    );
  });

  it('answers correctly signed but mutated business bodies with a documented code, never 50000', async () => {
    await fc.assert(
      fc.asyncProperty(route, mutatedParams, async (path, params) => {
        const { extra, ...fields } = params;
        const body = Object.fromEntries(
          Object.entries({ ...extra, ...fields }).filter(([, v]) => v !== undefined),
        );
        const reply = await merchant.request(path, body);
        expectWellFormed(reply);
        if (path === '/gateway/pay' && reply.envelope.code === 0) accepted.add(String(body['bizOrderNo']));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses random signatures with 20052', async () => {
    await fc.assert(
      fc.asyncProperty(route, fc.base64String({ minLength: 4, maxLength: 400 }), async (path, sign) => {
        const reply = await merchant.send(path, { ...merchant.signed({}), sign });
        expectWellFormed(reply);
        expect([Codes.SIGNATURE_FAILED.code, Codes.INVALID_PARAMETER.code]).toContain(reply.envelope.code);
      }),
      { numRuns: 80 },
    );
  });

  it('refuses random request times with 10001 or 20053, never accepting one outside the window', async () => {
    const time = fc.oneof(
      fc
        .date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().replace('T', ' ').slice(0, 19)),
      fc.string({ maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(time, async (reqTime) => {
        const reply = await merchant.request('/gateway/options/pay-methods', {}, { reqTime });
        expectWellFormed(reply);
        // Anything but a time within 300 s of now (in Mexico City) is refused.
        expect([Codes.INVALID_PARAMETER.code, Codes.REQ_TIME_OUT_OF_WINDOW.code]).toContain(
          reply.envelope.code,
        );
      }),
      { numRuns: 80 },
    );
  });

  it('stored no payment order for any rejected pay request', async () => {
    const client = new pg.Client({ connectionString: stack.databaseUrl('payments') });
    await client.connect();
    try {
      const { rows } = await client.query<{ biz_order_no: string }>(
        'select biz_order_no from pay_orders where mch_no = $1',
        [merchant.mchNo],
      );
      expect(rows.map((r) => r.biz_order_no).sort()).toEqual([...accepted].sort());
    } finally {
      await client.end();
    }
  });
});
