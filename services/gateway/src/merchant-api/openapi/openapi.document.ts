import { Codes } from '@agentpay/wire';
import type { z } from 'zod';
import { merchantRoutes } from '../merchant-api.routes.js';
import { commonParams } from '../schemas.js';
import { documentedCodes } from './codes.js';
import { COMMON_CODES, ENDPOINT_DOCS } from './endpoints.js';
import { envelope, replySchemas } from './reply-schemas.js';
import { type JsonSchema, mergeObjects, requestSchema } from './request-schemas.js';
import {
  ERROR_REPLY_EXAMPLE,
  EXAMPLE_KEYS,
  OPTIONS_REPLY_EXAMPLE,
  PAY_CALLBACK_EXAMPLE,
  PAY_REPLY_EXAMPLE,
  PAY_REQUEST_EXAMPLE,
} from './signing-examples.js';

/** The part of a gateway route the document needs: where it is and the schema it validates with. */
export interface DocumentedRoute {
  path: string;
  schema: z.ZodType;
}

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, unknown> };
};

export const API_VERSION = '1.0.0';

/** The callback retry schedule of docs/merchant-api.md "Callbacks" (the notifier's default). */
export const RETRY_SCHEDULE = '15s, 15s, 30s, 1m, 3m, 10m, 20m, 30m, 30m, 30m, 1h, 3h, 3h, 3h, 6h, 6h';

/**
 * The gateway's own route list and schemas. merchantRoutes only closes over its clients, so placeholder
 * clients give exactly the routes and zod schemas the running gateway validates with.
 */
export function gatewayRoutes(timeZone = 'America/Mexico_City'): DocumentedRoute[] {
  const unused = undefined as never;
  return merchantRoutes({
    payments: unused,
    transfers: unused,
    router: unused,
    ledger: unused,
    timeZone,
    grpcTimeoutMs: 0,
  });
}

/** OpenAPI 3.1 document of the merchant API for `routes` (by default the gateway's). */
export function buildOpenApiDocument(routes: readonly DocumentedRoute[] = gatewayRoutes()): OpenApiDocument {
  const common = requestSchema(commonParams);
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const doc = ENDPOINT_DOCS[route.path];
    if (!doc) throw new Error(`openapi: route ${route.path} has no entry in ENDPOINT_DOCS`);
    const data: JsonSchema =
      doc.data === null
        ? { type: 'null' }
        : doc.data.startsWith('array:')
          ? { type: 'array', items: { $ref: `#/components/schemas/${doc.data.slice('array:'.length)}` } }
          : { $ref: `#/components/schemas/${doc.data}` };
    const codes = [...COMMON_CODES, ...doc.codes].map((name) => Codes[name].code).sort((a, b) => a - b);
    const examples = operationExamples(route.path);
    const routeLinks = LINKS[route.path];
    paths[route.path] = {
      post: {
        operationId: doc.operationId,
        tags: [doc.tag],
        summary: doc.summary,
        description: `${doc.description}\n\nCodes: ${codes.join(', ')}. SDK: \`client.${doc.sdkMethod}()\`.`,
        'x-codes': codes,
        'x-sdk-method': doc.sdkMethod,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: mergeObjects(common, requestSchema(route.schema)),
              ...(examples.request ? { examples: examples.request } : {}),
            },
          },
        },
        responses: {
          '200': {
            description:
              'A signed envelope: code 0 with `data`, or a business failure (any other code) with `data` null.',
            content: {
              'application/json': {
                schema: envelope(doc.data === null ? { type: 'null' } : { anyOf: [data, { type: 'null' }] }),
                ...(examples.reply ? { examples: examples.reply } : {}),
              },
            },
            ...(routeLinks ? { links: links(routeLinks) } : {}),
          },
          '400': { $ref: '#/components/responses/NotJson' },
          '404': { $ref: '#/components/responses/NotFound' },
          '405': { $ref: '#/components/responses/MethodNotAllowed' },
          '413': { $ref: '#/components/responses/TooLarge' },
          '415': { $ref: '#/components/responses/NotJsonContentType' },
          '429': { $ref: '#/components/responses/RateLimited' },
          '500': { $ref: '#/components/responses/InternalError' },
          '503': { $ref: '#/components/responses/Unavailable' },
        },
      },
    };
  }

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'agentpay merchant API',
      version: API_VERSION,
      summary:
        'Virtual-account payments and SPEI payouts in Mexico, with signed requests, replies and callbacks.',
      description: overview(),
    },
    servers: [{ url: 'http://127.0.0.1:8080', description: 'A local stack (npm start)' }],
    tags: [
      { name: 'Payments', description: 'Virtual-account payment orders.' },
      { name: 'Transfers', description: 'Payee inquiry and transfers (payouts).' },
      { name: 'Options', description: 'What is open to the merchant.' },
      { name: 'Balance', description: 'The merchant’s balance and its statement.' },
      {
        name: 'Controls',
        description:
          'The controls on where money goes: the limits in effect with their usage, and the registered payees of registered-payees mode.',
      },
    ],
    paths,
    webhooks: {
      payOrderStatusChanged: webhook(
        'PayOrderCallback',
        'A payment order changed status',
        PAY_CALLBACK_EXAMPLE,
      ),
      transferStatusChanged: webhook('TransferCallback', 'A transfer changed status'),
      refundStatusChanged: webhook('RefundCallback', 'A refund changed status'),
    },
    components: {
      schemas: { CommonParams: common, ...replySchemas(codeSchema()) },
      responses: {
        NotJson: errorResponse(
          'The body is not parseable JSON or is empty; or it holds what the platform cannot take as text or number: U+0000 or a lone surrogate in a string or key, a number out of range (`1e400`), objects or arrays nested deeper than 32 levels; or the request is not well-formed HTTP (code 10002, `msg` names the field).',
        ),
        NotFound: errorResponse('No such path (code 10001). Paths are exact: no trailing slash.'),
        MethodNotAllowed: {
          ...errorResponse('The path takes only POST (code 10001).'),
          headers: {
            Allow: {
              description: 'The methods the path takes: `POST`.',
              schema: { type: 'string', const: 'POST' },
            },
          },
        },
        TooLarge: errorResponse('The body is larger than 64 KiB (code 10002).'),
        NotJsonContentType: errorResponse('The content type is not application/json (code 10003).'),
        RateLimited: errorResponse('The merchant’s rate limit is exceeded (code 42900). Retry later.'),
        InternalError: errorResponse('Unexpected error (code 50000). Quote the traceId.'),
        Unavailable: errorResponse('A platform service is down (code 50003). Retry later.'),
      },
    },
    'x-agentpay-signing': {
      algorithm: 'RSASSA-PKCS1-v1_5 with SHA-256, RSA keys of 2048 bits or more',
      encoding: 'Base64 (standard alphabet, padded)',
      canonicalString: SIGNING_RULES,
      example: { ...PAY_REQUEST_EXAMPLE, merchantPublicKey: EXAMPLE_KEYS.merchantPublicKey },
      replyExample: { ...PAY_REPLY_EXAMPLE, platformPublicKey: EXAMPLE_KEYS.platformPublicKey },
    },
  };
}

const SIGNING_RULES = [
  'Take the JSON object as sent and drop the key `sign`, every top-level key whose value is null, and every top-level key whose value is the empty string. Nothing is dropped inside an object or array: a nested null stays null in its JSON text.',
  'Sort the remaining keys by Unicode code point (plain ASCII order for the API’s keys).',
  'Render each value: a string as it is, with no escaping; a number in its shortest round-trip form, as ECMAScript `String(n)` writes it (`100.5`, never `100.50`; `5`, never `5.0`; `1e-7`); `true`/`false`; an object or array as its RFC 8785 (JCS) canonical JSON text.',
  'Join the `key=value` pairs with `&`. Sign the UTF-8 bytes of that string.',
];

function codeSchema(): JsonSchema {
  return {
    type: 'integer',
    description:
      'Envelope code (CONTRACT section 4). 0 is success. Business outcomes, failures included, answer HTTP 200.',
    oneOf: documentedCodes().map(({ name, code, msg, doc }) => ({
      const: code,
      title: msg,
      description: `${doc.when} HTTP ${doc.http.join(' or ')}.${doc.httpNote ? ` ${doc.httpNote}` : ''}`,
      'x-name': name,
      'x-http-status': [...doc.http],
    })),
  };
}

/** A follow-up call: its operation and the body fields it takes from this call's request or reply. */
interface LinkDoc {
  operationId: string;
  description: string;
  body: Record<string, string>;
}

const fromReply = (pointer: string) => `{$response.body#${pointer}}`;
const fromRequest = (pointer: string) => `{$request.body#${pointer}}`;
const ORDER_CALLS = ['queryPayOrder', 'close', 'syncPayOrder'] as const;

// OpenAPI links, so a tool can chain calls: each names the fields it fills in; the common parameters and
// `sign` are added and signed as for any request.
const LINKS: Record<string, Record<string, LinkDoc>> = {
  '/gateway/pay': Object.fromEntries(
    ORDER_CALLS.map((operationId) => [
      operationId,
      {
        operationId,
        description: `\`${operationId}\` the order just created, by its \`orderNo\`.`,
        body: { orderNo: fromReply('/data/orderNo') },
      },
    ]),
  ),
  '/gateway/transfer': {
    queryTransferOrder: {
      operationId: 'queryTransferOrder',
      description: 'Query the transfer just created, by its `transferNo`.',
      body: { transferNo: fromReply('/data/transferNo') },
    },
  },
  '/gateway/inqury': {
    transfer: {
      operationId: 'transfer',
      description: 'Pay out to the account just checked (when `accountValid`).',
      body: {
        payeeType: fromRequest('/payeeType'),
        payeeAccount: fromRequest('/payeeAccount'),
        payeeCode: fromRequest('/payeeCode'),
      },
    },
  },
  '/gateway/options/pay-methods': {
    pay: {
      operationId: 'pay',
      description: 'Create a payment order with a listed method `code`.',
      body: { method: fromReply('/data/0/code') },
    },
  },
  '/gateway/options/payee-types': Object.fromEntries(
    (['payeeCodes', 'inquire', 'transfer'] as const).map((operationId) => [
      operationId,
      {
        operationId,
        description: 'Use a listed payee type `code` as `payeeType`.',
        body: { payeeType: fromReply('/data/0/code') },
      },
    ]),
  ),
  '/gateway/query/balanceRecords': {
    nextPage: {
      operationId: 'balanceRecords',
      description: 'The next page of the same statement (while `nextCursor` is present).',
      body: {
        startTime: fromRequest('/startTime'),
        endTime: fromRequest('/endTime'),
        limit: fromRequest('/limit'),
        cursor: fromReply('/data/nextCursor'),
      },
    },
    queryPayOrder: {
      operationId: 'queryPayOrder',
      description: 'The payment order of a `pay_in` or `settle` record, by its `orderNo`.',
      body: { orderNo: fromReply('/data/records/0/orderNo') },
    },
    queryTransferOrder: {
      operationId: 'queryTransferOrder',
      description: 'The transfer of a `transfer_*` record, by its `transferNo`.',
      body: { transferNo: fromReply('/data/records/0/transferNo') },
    },
  },
  '/gateway/options/payee-codes': Object.fromEntries(
    (['inquire', 'transfer'] as const).map((operationId) => [
      operationId,
      {
        operationId,
        description: 'Use a listed payee code `code` as `payeeCode`, with the same `payeeType`.',
        body: { payeeType: fromRequest('/payeeType'), payeeCode: fromReply('/data/0/code') },
      },
    ]),
  ),
};

function links(docs: Record<string, LinkDoc>) {
  return Object.fromEntries(
    Object.entries(docs).map(([name, doc]) => [
      name,
      { operationId: doc.operationId, description: doc.description, requestBody: doc.body },
    ]),
  );
}

function errorResponse(description: string) {
  return {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
}

function webhook(
  schema: string,
  summary: string,
  example?: { object: Record<string, unknown>; sign: string },
) {
  return {
    post: {
      summary,
      description: `POSTed to the order’s \`notifyUrl\` on every status change (none when the order has no notifyUrl). Verify \`sign\` with the platform public key before acting on it. Acknowledge with HTTP 2xx and the body \`SUCCESS\` (any case, surrounding spaces ignored); anything else, a connection error or no complete answer within 15 s is a failure and is retried up to 16 times, after ${RETRY_SCHEDULE} (about 24 h in all). A newer change of the same order replaces an older one still waiting to be retried. The same change can arrive more than once: handle callbacks idempotently by order number and status. SDK: \`verifyCallback(body, platformPublicKey)\`.`,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${schema}` },
            ...(example
              ? {
                  examples: {
                    vector: {
                      summary: 'Signed with the example platform key',
                      value: { ...example.object, sign: example.sign },
                    },
                  },
                }
              : {}),
          },
        },
      },
      responses: {
        '200': {
          description: 'Acknowledged.',
          content: {
            'text/plain': {
              schema: { type: 'string', pattern: '^\\s*[Ss][Uu][Cc][Cc][Ee][Ss][Ss]\\s*$' },
              example: 'SUCCESS',
            },
          },
        },
        default: { description: 'Not acknowledged: the callback is retried on the schedule above.' },
      },
    },
  };
}

function operationExamples(path: string): { request?: unknown; reply?: unknown } {
  const signed = (e: { object: Record<string, unknown>; sign: string }) => ({ ...e.object, sign: e.sign });
  switch (path) {
    case '/gateway/pay':
      return {
        request: {
          vector: { summary: 'Signed with the example merchant key', value: signed(PAY_REQUEST_EXAMPLE) },
        },
        reply: {
          created: { summary: 'Signed with the example platform key', value: signed(PAY_REPLY_EXAMPLE) },
          failure: { summary: 'A failure: data is null', value: signed(ERROR_REPLY_EXAMPLE) },
        },
      };
    case '/gateway/options/payee-codes':
      return {
        reply: {
          codes: { summary: 'Signed with the example platform key', value: signed(OPTIONS_REPLY_EXAMPLE) },
        },
      };
    default:
      return {};
  }
}

function overview(): string {
  const codes = documentedCodes()
    .map(
      ({ code, msg, doc }) =>
        `| \`${code}\` | ${msg} | ${doc.http.join(', ')} | ${doc.when}${doc.httpNote ? ` ${doc.httpNote}` : ''} |`,
    )
    .join('\n');
  const example = PAY_REQUEST_EXAMPLE;
  return `Merchant-facing payment and payout API for Mexico: virtual-account (CLABE) pay-ins, SPEI payouts, payee inquiry, order queries and signed status callbacks. The platform picks an upstream route itself; replies never name the upstream channel.

## Requests

Every endpoint is \`POST\` with an \`application/json\` body of at most 64 KiB: one flat JSON object holding the common parameters (\`mchNo\`, \`reqTime\`, \`sign\`, and optionally \`appId\`, \`nonceStr\`, \`clientIp\`) and the endpoint's business parameters. An empty string or null counts as absent. Checks run in this order: body (10002, 10003, HTTP 400/413/415), common parameters (10001), merchant (20050, 20051, 20055), signature (20052), \`reqTime\` within ±300 s (20053) and \`nonceStr\` unused for 24 h (20054), then business parameters (10001 naming the field) and business rules.

Amounts are JSON numbers in pesos with at most 2 decimals (\`100.5\` is 100.50 MXN), from 0.01 to 99,999,999.99. Date-times are \`yyyy-MM-dd HH:mm:ss\` on the platform wall clock (America/Mexico_City).

## Signing

Requests are signed with the merchant's RSA private key; the platform verifies with the public key registered for the merchant (two may be active during a rotation). Every reply, errors included, and every callback is signed with the platform private key: verify it with the platform public key before using the content. Signature: RSASSA-PKCS1-v1_5 with SHA-256 over the UTF-8 bytes of the canonical string, Base64 (standard, padded). The canonical string:

${SIGNING_RULES.map((rule, i) => `${i + 1}. ${rule}`).join('\n')}

### Worked example

The request (vector "${example.vector}" of the platform's signing vectors) before signing:

\`\`\`json
${JSON.stringify(example.object, null, 2)}
\`\`\`

\`description\` (empty) and \`attach\` (null) are dropped; \`extraParam\` is a string, so it appears as it is. Canonical string:

\`\`\`text
${example.canonical}
\`\`\`

Signature (\`sign\`), which verifies with the example merchant public key in \`x-agentpay-signing\`:

\`\`\`text
${example.sign}
\`\`\`

The body sent is the object plus \`"sign"\`. A reply is checked the same way: its canonical string covers \`code\`, \`msg\`, \`data\` (JCS text), \`resTime\` and \`traceId\`.

## Replies

Every reply is the signed envelope \`{code, msg, data, sign, resTime, traceId}\`. Business outcomes, failures included, answer HTTP 200; \`data\` is null on a failure. Inside \`data\` a field without a value is left out, never null. Other statuses: 400 body not parseable JSON, 404 unknown path, 405 not POST, 413 body too large, 415 not JSON, 429 rate limited, 500 unexpected, 503 a platform service is down; each still carries a signed envelope.

| code | msg | HTTP | when |
|---|---|---|---|
${codes}

## Idempotency

\`bizOrderNo\`, \`bizTransferNo\` and \`bizInquryNo\` are unique per merchant. Repeating a create with the same business parameters returns the existing object with code 0: no second order, upstream call or callback. Different parameters answer 30002, 40003 or 40007. It holds for concurrent repeats. After a timeout, repeat the call with the same number, or query.

## Balance

\`query/balance\` answers the merchant's MXN balance in three parts: \`available\` (may be paid out), \`pending\` (paid in, not yet settled) and \`frozen\` (held for transfers in progress). \`query/balanceRecords\` pages through the ledger records behind it, oldest first; each record carries its changes and the balances right after it, so consecutive records chain and a statement can be proved.

## Callbacks

See \`webhooks\`: one signed POST to \`notifyUrl\` per status change, \`data\` equal to the query result at the change; answer \`SUCCESS\`. Retries: up to 16, after ${RETRY_SCHEDULE}.

## SDK

\`@agentpay/merchant-sdk\` signs requests, verifies replies and callbacks, and has a typed method per endpoint.`;
}
