import { moneyOperationSchemas } from './reply-schemas.money-ops.js';
import type { JsonSchema } from './request-schemas.js';
import {
  CEP_URL,
  DATA_NOTE,
  MONEY,
  NULLABLE_MONEY,
  ref,
  SIGNED_MONEY,
  text,
  WIRE_TIME,
} from './schema-parts.js';

// Reply shapes (seed sections 2.3 to 2.6, docs/merchant-api.md). These mirror what routes.ts and
// @agentpay/api's views answer; test/sdk-e2e.test.ts checks real replies against them.

export const PAY_STATUSES = ['wait', 'progress', 'success', 'close', 'cancel', 'fail', 'timeout'] as const;
export const TRANSFER_STATUSES = ['progress', 'success', 'close', 'fail'] as const;
export const RECORD_TYPES = [
  'pay_in',
  'settle',
  'transfer_freeze',
  'transfer_unfreeze',
  'transfer_out',
  'transfer_return',
  'adjust',
] as const;

const BALANCE_RECORD_EXAMPLES = [
  {
    recordNo: '1041',
    type: 'pay_in',
    orderNo: 'P2026112110150012345',
    bizOrderNo: 'ORD-20261121-0001',
    amount: 100.5,
    fee: 3.02,
    availableChange: 0,
    pendingChange: 97.48,
    frozenChange: 0,
    availableBalance: 250,
    pendingBalance: 97.48,
    frozenBalance: 0,
    createTime: '2026-11-21 10:20:03',
  },
  {
    recordNo: '1057',
    type: 'adjust',
    amount: -20,
    fee: 0,
    availableChange: -20,
    pendingChange: 0,
    frozenChange: 0,
    availableBalance: 230,
    pendingBalance: 97.48,
    frozenBalance: 0,
    remark: 'chargeback CB-7781',
    createTime: '2026-11-21 12:02:40',
  },
];

/** The data shapes, envelopes and callback bodies, for `components.schemas`. */
export function replySchemas(codeSchema: JsonSchema): Record<string, JsonSchema> {
  return {
    Code: codeSchema,
    PayStatus: {
      type: 'string',
      enum: [...PAY_STATUSES],
      description:
        '`wait` awaiting payment, `progress` paying, `success` paid, `close` closed, `cancel` cancelled, `fail` failed upstream, `timeout` expired unpaid. `wait → progress → success`; `wait|progress → close|cancel|fail|timeout`; sync may move `close`, `timeout` or `fail` to `success` when the money did arrive.',
    },
    TransferStatus: {
      type: 'string',
      enum: [...TRANSFER_STATUSES],
      description:
        '`progress` in progress, `success` paid out, `fail` failed (a synchronous rejection is created as `fail`), `close` returned by the receiving bank after `success`.',
    },
    OptionItem: {
      type: 'object',
      required: ['code', 'name'],
      properties: { code: text('Public code.'), name: text('Display name.') },
    },
    PayBody: {
      type: 'object',
      description: 'What the payer needs: send exactly `amount` by SPEI to `clabe` before `expiredTime`.',
      required: ['clabe', 'amount'],
      properties: {
        clabe: { type: 'string', pattern: '^\\d{18}$', description: 'The order’s 18-digit virtual account.' },
        bankCode: text('Banxico institution code of the account’s bank.'),
        bankName: text('Name of the account’s bank.'),
        beneficiaryName: text('Beneficiary name to show the payer.'),
        amount: MONEY('Exact amount to send.'),
        expiredTime: WIRE_TIME,
        reference: text('Payment reference.'),
        cashierUrl: {
          type: 'string',
          format: 'uri',
          pattern: '^https?://',
          description:
            'The platform’s hosted payment page for this order (`{PUBLIC_BASE_URL}/cashier/{orderNo}?t={token}`): send the payer there; it shows these fields, follows the order live and returns the payer to `returnUrl` with `orderNo`, `bizOrderNo` and `status`. Only in the create-pay reply.',
        },
      },
    },
    PayResult: {
      type: 'object',
      description: DATA_NOTE,
      properties: {
        bizOrderNo: text('Merchant payment order number.'),
        orderNo: text('Platform payment order number.'),
        status: ref('PayStatus'),
        payBody: {
          type: 'string',
          description: 'JSON text of a PayBody: where the payer sends the money.',
          contentMediaType: 'application/json',
          contentSchema: ref('PayBody'),
        },
      },
    },
    PayOrder: {
      type: 'object',
      description: `A payment order, as query/payOrder returns it and as the payment callback carries it. ${DATA_NOTE}`,
      properties: {
        bizOrderNo: text('Merchant payment order number.'),
        orderNo: text('Platform payment order number.'),
        title: text('Payment title.'),
        description: text('Payment description.'),
        method: text('Payment method code.'),
        limitPay: text('Payment restriction code.'),
        amount: MONEY('Order amount.'),
        fee: MONEY('Fee, from the merchant’s rate.'),
        realAmount: MONEY('Net amount: amount − fee.'),
        status: ref('PayStatus'),
        settleStatus: { type: 'string', enum: ['not_settle', 'settled'] },
        settleType: { type: 'string', enum: ['REALTIME', 'D+1', 'D+2', 'D+3'] },
        settleTime: WIRE_TIME,
        payTime: WIRE_TIME,
        closeTime: WIRE_TIME,
        expiredTime: WIRE_TIME,
        attach: text('Merchant attachment, unchanged.'),
        claveRastreo: text(
          'SPEI tracking key (clave de rastreo) of the deposit that paid the order, as the payer’s bank shows it. Present once the order is paid, for a channel that reports one; absent before.',
        ),
        cep: ref('Cep'),
        cepUrl: CEP_URL,
      },
    },
    InquiryResult: {
      type: 'object',
      description: DATA_NOTE,
      properties: {
        bizInquryNo: text('Merchant inquiry number.'),
        inquryNo: text('Platform inquiry number.'),
        status: {
          type: 'string',
          enum: ['valid', 'invalid', 'unknown'],
          description: '`invalid` also for an account that fails its format or check digit.',
        },
        accountValid: { type: 'boolean' },
        uploadPayeeName: text('Payee name as submitted.'),
      },
    },
    TransferResult: {
      type: 'object',
      description: DATA_NOTE,
      properties: {
        bizTransferNo: text('Merchant transfer number.'),
        transferNo: text('Platform transfer number.'),
        status: ref('TransferStatus'),
      },
    },
    TransferOrder: {
      type: 'object',
      description: `A transfer, as query/transferOrder returns it and as the transfer callback carries it. ${DATA_NOTE}`,
      properties: {
        bizTransferNo: text('Merchant transfer number.'),
        transferNo: text('Platform transfer number.'),
        amount: MONEY('Transfer amount.'),
        fee: MONEY('Fee, from the merchant’s rate.'),
        title: text('Payment title.'),
        reason: text('Reason or remark.'),
        payeeType: text('Payee account type.'),
        payeeAccount: text('Payee account.'),
        payeeName: text('Payee name.'),
        payeeCode: text('Public payee code.'),
        status: ref('TransferStatus'),
        finishTime: WIRE_TIME,
        attach: text('Merchant attachment, unchanged.'),
        claveRastreo: text(
          'SPEI tracking key (clave de rastreo) of the payout, as the payee’s bank shows it. Present once the channel assigned one (often already in `progress`), and kept after; absent before.',
        ),
        cep: ref('Cep'),
        cepUrl: CEP_URL,
      },
    },
    ...moneyOperationSchemas(),
    SyncResult: {
      type: 'object',
      description: DATA_NOTE,
      properties: {
        orderStatus: ref('PayStatus'),
        adjust: {
          type: 'boolean',
          description: 'True exactly when the local order was changed to match upstream.',
        },
      },
    },
    Balance: {
      type: 'object',
      description:
        'The merchant’s MXN balance in three parts, none ever below zero: `available` may be paid out, `pending` was paid in and is not settled yet, `frozen` is held for transfers in progress.',
      required: ['currency', 'available', 'pending', 'frozen'],
      properties: {
        currency: { type: 'string', const: 'MXN' },
        available: MONEY('May be paid out (transfers take amount + fee from it).'),
        pending: MONEY('Paid in, settled to `available` on the order’s settlement day.'),
        frozen: MONEY('Held for transfers still in progress.'),
      },
      examples: [{ currency: 'MXN', available: 230, pending: 97.48, frozen: 0 }],
    },
    BalanceRecordType: {
      type: 'string',
      enum: [...RECORD_TYPES],
      description:
        '`pay_in` a payment order succeeded (into `pending`, or `available` for REALTIME), `settle` pending to available, `transfer_freeze` a transfer held amount + fee, `transfer_unfreeze` released it (fail or close before success), `transfer_out` paid it out, `transfer_return` the receiving bank returned the amount (the fee is kept), `adjust` an operator’s correction.',
    },
    BalanceRecord: {
      type: 'object',
      description: `One movement of the merchant’s balance. Each balance is the one right after this record, so a record’s balances equal the previous record’s plus this record’s changes. The order or transfer that caused it is named (\`orderNo\`/\`bizOrderNo\` or \`transferNo\`/\`bizTransferNo\`). ${DATA_NOTE}`,
      required: [
        'recordNo',
        'type',
        'amount',
        'fee',
        'availableChange',
        'pendingChange',
        'frozenChange',
        'availableBalance',
        'pendingBalance',
        'frozenBalance',
        'createTime',
      ],
      properties: {
        recordNo: text('Platform record number, unique.'),
        type: ref('BalanceRecordType'),
        orderNo: text('Platform payment order number (pay_in, settle).'),
        bizOrderNo: text('Merchant payment order number (pay_in, settle).'),
        transferNo: text('Platform transfer number (transfer_*).'),
        bizTransferNo: text('Merchant transfer number (transfer_*).'),
        amount: SIGNED_MONEY(
          'The order’s or transfer’s amount; for `adjust` the adjustment itself (negative for a debit).',
        ),
        fee: MONEY('The fee of the order or transfer; 0 when none.'),
        availableChange: SIGNED_MONEY('Change of `available`.'),
        pendingChange: SIGNED_MONEY('Change of `pending`.'),
        frozenChange: SIGNED_MONEY('Change of `frozen`.'),
        availableBalance: MONEY('`available` right after this record.'),
        pendingBalance: MONEY('`pending` right after this record.'),
        frozenBalance: MONEY('`frozen` right after this record.'),
        remark: text('The operator’s reason (`adjust`).'),
        createTime: WIRE_TIME,
      },
      examples: BALANCE_RECORD_EXAMPLES,
    },
    BalanceRecordPage: {
      type: 'object',
      description: `One page of the statement, oldest first. ${DATA_NOTE}`,
      required: ['records'],
      properties: {
        records: { type: 'array', items: ref('BalanceRecord') },
        nextCursor: text(
          'Pass it as `cursor` (with the same `startTime` and `endTime`) for the next page; absent on the last page.',
        ),
      },
      examples: [{ records: BALANCE_RECORD_EXAMPLES, nextCursor: 'ZTEwNTc' }],
    },
    Limits: {
      type: 'object',
      description:
        'The limits in effect (`null`: no limit) and the payout usage they are checked against, Mexico City calendar day and month.',
      required: ['limits', 'usage'],
      properties: {
        limits: {
          type: 'object',
          required: ['payout', 'payin'],
          properties: {
            payout: {
              type: 'object',
              required: ['perTransfer', 'daily', 'dailyCount', 'monthly'],
              properties: {
                perTransfer: NULLABLE_MONEY('Largest amount of one transfer (fee excluded).'),
                daily: NULLABLE_MONEY('What the transfers of one day may add up to.'),
                dailyCount: {
                  type: ['integer', 'null'],
                  minimum: 0,
                  description: 'How many transfers one day may have.',
                },
                monthly: NULLABLE_MONEY('What the transfers of one month may add up to.'),
              },
            },
            payin: {
              type: 'object',
              required: ['perOrder'],
              properties: { perOrder: NULLABLE_MONEY('Largest payment order.') },
            },
          },
        },
        usage: {
          type: 'object',
          required: ['day', 'payoutAmount', 'payoutCount', 'month', 'monthAmount'],
          properties: {
            day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Today, yyyy-MM-dd.' },
            payoutAmount: MONEY('Transfers counted today.'),
            payoutCount: { type: 'integer', minimum: 0, description: 'How many transfers today.' },
            month: { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'This month, yyyy-MM.' },
            monthAmount: MONEY('Transfers counted this month.'),
          },
        },
      },
      examples: [
        {
          limits: {
            payout: { perTransfer: 1000000, daily: 5000000, dailyCount: 10000, monthly: 50000000 },
            payin: { perOrder: 5000000 },
          },
          usage: {
            day: '2026-11-28',
            payoutAmount: 1500.25,
            payoutCount: 3,
            month: '2026-11',
            monthAmount: 98000,
          },
        },
      ],
    },
    Payee: {
      type: 'object',
      description: `A registered payee. ${DATA_NOTE}`,
      required: ['payeeId', 'payeeType', 'payeeAccount', 'payeeName', 'status', 'usableAt', 'createTime'],
      properties: {
        payeeId: text('Platform payee id.'),
        payeeType: text('As in `transfer`.'),
        payeeAccount: text('As in `transfer` (a CLABE is kept as given).'),
        payeeName: text('The payee’s name.'),
        payeeCode: text('Institution code, when the type has one.'),
        status: {
          type: 'string',
          enum: ['cooling', 'usable', 'removed'],
          description:
            '`cooling` until `usableAt` or a second person’s approval, then `usable`; `removed` for good.',
        },
        usableAt: WIRE_TIME,
        createTime: WIRE_TIME,
        removeTime: WIRE_TIME,
      },
    },
    PayeePage: {
      type: 'object',
      description: DATA_NOTE,
      required: ['payees'],
      properties: {
        payees: { type: 'array', items: ref('Payee') },
        nextCursor: text('Pass it as `cursor` for the next page; absent on the last page.'),
      },
    },
    ErrorEnvelope: envelope({ type: 'null' }, 'A failure: `code` is not 0 and `data` is null.'),
    PayOrderCallback: callback('PayOrder', 'orderNo'),
    TransferCallback: callback('TransferOrder', 'transferNo'),
    RefundCallback: callback('Refund', 'refundNo'),
  };
}

/** The signed envelope around `data` (seed 2.1, docs/merchant-api.md "Codes"). */
export function envelope(data: JsonSchema, description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    required: ['code', 'msg', 'data', 'sign', 'resTime', 'traceId'],
    properties: {
      code: ref('Code'),
      msg: text('`success`, or the code’s message, with detail after a colon (10001 names the field).'),
      data,
      sign: text('Platform signature of every other field (see the signing rules); verify it before use.'),
      resTime: WIRE_TIME,
      traceId: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'W3C trace id of the request.' },
    },
  };
}

function callback(order: string, idField: string): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'msg', 'noticeType', 'mchNo', 'data', 'sign', 'resTime', 'traceId'],
    properties: {
      code: { type: 'integer', description: '`0`.', examples: [0] },
      msg: { type: 'string', description: '`success`.', examples: ['success'] },
      noticeType: {
        type: 'string',
        const: 'order_status_changed',
        description: '`order_status_changed`: the one notice type.',
      },
      mchNo: text('Merchant number.'),
      appId: text('The appId of the request that created the order, when it had one.'),
      data: {
        allOf: [
          ref(order),
          { type: 'object', required: [idField], properties: { [idField]: { type: 'string' } } },
        ],
        description: 'Equal to the query result at the time of the change.',
      },
      sign: text('Platform signature of every other field; verify it before acting on the callback.'),
      resTime: WIRE_TIME,
      traceId: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    },
  };
}
