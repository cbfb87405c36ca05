import type { JsonSchema } from './request-schemas.js';
import { CEP_URL, DATA_NOTE, MONEY, ref, text, WIRE_TIME } from './schema-parts.js';

// The reply shapes of the money operations of CONTRACT section 21: the CEP facts, refunds and batch
// payouts; spread into replySchemas.

export function moneyOperationSchemas(): Record<string, JsonSchema> {
  return {
    Cep: {
      type: 'object',
      description:
        'The six facts Banxico’s CEP page (Comprobante Electrónico de Pago, https://www.banxico.org.mx/cep/) looks a SPEI payment up by. Present on a paid order, a successful transfer and a successful refund once all six are known.',
      required: ['fecha', 'claveRastreo', 'emisor', 'receptor', 'cuenta', 'monto'],
      properties: {
        fecha: {
          type: 'string',
          pattern: '^\\d{2}-\\d{2}-\\d{4}$',
          description: 'Operation day, dd-MM-yyyy (Mexico City).',
        },
        claveRastreo: text('SPEI tracking key.'),
        emisor: { type: 'string', pattern: '^\\d{5}$', description: 'Banxico code of the sending bank.' },
        receptor: { type: 'string', pattern: '^\\d{5}$', description: 'Banxico code of the receiving bank.' },
        cuenta: text('The receiving account (CLABE or card).'),
        monto: {
          type: 'string',
          pattern: '^\\d+\\.\\d{2}$',
          description: 'Amount in pesos with two decimals.',
        },
      },
      examples: [
        {
          fecha: '28-11-2026',
          claveRastreo: 'AP2611280000000000000001',
          emisor: '90646',
          receptor: '40012',
          cuenta: '012180015555555550',
          monto: '150.00',
        },
      ],
    },
    RefundResult: {
      type: 'object',
      description: DATA_NOTE,
      properties: {
        refundNo: text('Platform refund number.'),
        bizRefundNo: text('Merchant refund number.'),
        orderNo: text('The refunded order’s platform number.'),
        amount: MONEY('Refund amount (all that was left when the request gave none).'),
        status: ref('RefundStatus'),
      },
    },
    RefundStatus: {
      type: 'string',
      enum: ['progress', 'success', 'fail'],
      description:
        '`progress` until the payout ends; `success` paid to the payer; `fail` refused by the channel or returned by the payer’s bank (its amount is back in `available` and may be refunded again).',
    },
    Refund: {
      type: 'object',
      description: `A refund, as query/refund returns it and as the refund callback carries it (the transfer callback’s shape with refundNo and orderNo). ${DATA_NOTE}`,
      properties: {
        refundNo: text('Platform refund number.'),
        bizRefundNo: text('Merchant refund number.'),
        orderNo: text('The refunded order’s platform number.'),
        bizOrderNo: text('The refunded order’s merchant number.'),
        amount: MONEY('Refund amount.'),
        fee: MONEY('Fee, the merchant’s transfer rate.'),
        reason: text('The merchant’s reason, as sent.'),
        payeeType: text('`spei_transfer` (a CLABE) or `bank_card`: how the payer paid.'),
        payeeAccount: text('The payer’s account, from the paying deposit.'),
        payeeName: text('The payer’s name, from the paying deposit.'),
        payeeCode: text('Banxico code of the payer’s bank.'),
        status: ref('RefundStatus'),
        finishTime: WIRE_TIME,
        claveRastreo: text('SPEI tracking key of the refund’s payout, once the channel assigned one.'),
        cep: ref('Cep'),
        cepUrl: CEP_URL,
      },
    },
    TransferBatchResult: {
      type: 'object',
      description: DATA_NOTE,
      properties: {
        batchNo: text('Platform batch number.'),
        bizBatchNo: text('Merchant batch number.'),
        status: {
          type: 'string',
          enum: ['progress', 'done'],
          description: '`progress` until every item ended.',
        },
        count: { type: 'integer', minimum: 1, maximum: 1000, description: 'Number of items.' },
        amount: MONEY('Sum of the items’ amounts.'),
        fee: MONEY('Sum of the items’ fees (frozen with the amounts).'),
      },
    },
    TransferBatch: {
      type: 'object',
      description: `A batch payout with its counts per item status and one page of its items (each a transfer as query/transferOrder returns it). ${DATA_NOTE}`,
      properties: {
        batchNo: text('Platform batch number.'),
        bizBatchNo: text('Merchant batch number.'),
        status: {
          type: 'string',
          enum: ['progress', 'done'],
          description: '`progress` until every item ended (`success`, `fail` or `close`), then `done`.',
        },
        count: { type: 'integer', minimum: 1, maximum: 1000, description: 'Number of items.' },
        amount: MONEY('Sum of the items’ amounts.'),
        fee: MONEY('Sum of the items’ fees.'),
        createTime: WIRE_TIME,
        progressCount: {
          type: 'integer',
          minimum: 0,
          description: 'Items still in progress (absent once done).',
        },
        successCount: { type: 'integer', minimum: 0 },
        failCount: { type: 'integer', minimum: 0 },
        closeCount: { type: 'integer', minimum: 0 },
        items: {
          type: 'array',
          items: ref('TransferOrder'),
          description: 'One page of items, in item order.',
        },
        nextCursor: text('Present while more items follow: send it as `cursor` for the next page.'),
      },
    },
  };
}
