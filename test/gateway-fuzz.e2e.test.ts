import type { KeyObject } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type Reply, type TestMerchant } from '@agentpay/testing';
import { Codes, type Envelope, verifyEnvelope } from '@agentpay/wire';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Bad input against the real gateway: random and mutated bodies, and bodies generated from the gateway's
// own GET /openapi.json (every operation; valid and invalid; signed and not; text JSON can carry but the
// platform cannot hold; other methods; malformed HTTP). Whatever arrives, the reply is a signed envelope
// whose HTTP status and code the document lists for that operation, `data` is null on a failure, nothing
// answers 5xx, and nothing is stored for a rejected request.
//
// FUZZ_RUNS=6000 npx vitest run test/gateway-fuzz.e2e.test.ts spreads that many generated requests over
// the properties (docs/merchant-api.md "Testing your integration against the document"); without it, a
// bounded count keeps the file within the suite's time.
const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] ?? 0);
/** `base` runs, or this property's share of FUZZ_RUNS when it is set. */
/** The sum of the properties' base counts below. */
const BASE_RUNS = 1_060;
const runs = (base: number) =>
  FUZZ_RUNS > 0 ? Math.max(1, Math.round((FUZZ_RUNS * base) / BASE_RUNS)) : base;

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
let merchant: TestMerchant & { platformKey: KeyObject };
/** Business numbers of every create the gateway accepted (code 0), by table. */
const accepted = { pay: new Set<string>(), transfer: new Set<string>(), inquiry: new Set<string>() };

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
      { numRuns: runs(150) },
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
      { numRuns: runs(100) },
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
        noteAccepted(path, body, reply);
      }),
      { numRuns: runs(200) },
    );
  });

  it('refuses random signatures with 20052', async () => {
    await fc.assert(
      fc.asyncProperty(route, fc.base64String({ minLength: 4, maxLength: 400 }), async (path, sign) => {
        const reply = await merchant.send(path, { ...merchant.signed({}), sign });
        expectWellFormed(reply);
        expect([Codes.SIGNATURE_FAILED.code, Codes.INVALID_PARAMETER.code]).toContain(reply.envelope.code);
      }),
      { numRuns: runs(80) },
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
      { numRuns: runs(80) },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated from the served OpenAPI document.

type Schema = Record<string, unknown>;
interface OperationDoc {
  path: string;
  operationId: string;
  schema: Schema;
  /** Envelope codes the operation lists (`x-codes`). */
  codes: Set<number>;
  /** HTTP statuses the operation lists. */
  statuses: Set<number>;
}
interface OpenApi {
  paths: Record<string, { post: Schema }>;
  components: { schemas: Record<string, Schema> };
}

let document: OpenApi;
let operations: OperationDoc[];
/** HTTP statuses each code is documented with (the Code schema's `x-http-status`). */
let statusesOfCode: Map<number, Set<number>>;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction>();

beforeAll(async () => {
  const response = await fetch(`${stack.urls.gateway}/openapi.json`);
  document = (await response.json()) as OpenApi;
  operations = Object.entries(document.paths).map(([path, item]) => {
    const post = item.post as {
      operationId: string;
      'x-codes': number[];
      responses: Record<string, unknown>;
      requestBody: { content: { 'application/json': { schema: Schema } } };
    };
    return {
      path,
      operationId: post.operationId,
      schema: post.requestBody.content['application/json'].schema,
      codes: new Set(post['x-codes']),
      statuses: new Set(Object.keys(post.responses).map(Number)),
      // Counterexamples name the operation rather than print its schema.
      [fc.toStringMethod]: () => path,
    };
  });
  const code = document.components.schemas['Code'] as {
    oneOf: { const: number; 'x-http-status': number[] }[];
  };
  statusesOfCode = new Map(code.oneOf.map((c) => [c.const, new Set(c['x-http-status'])]));
  ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  // Ajv divides floats, so 66814076.41 is "not a multiple of 0.01"; the gateway judges the number as
  // written (docs/merchant-api.md), which is what this keyword does.
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword({
    keyword: 'multipleOf',
    type: 'number',
    schemaType: 'number',
    validate: (step: number, value: number) => decimals(value) <= decimals(step) && Number.isFinite(value),
  });
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    ajv.addSchema(schema, `#/components/schemas/${name}`);
  }
  for (const op of operations) validators.set(op.path, ajv.compile(op.schema));
});

afterAll(async () => {
  // Runs before the stack stops (hooks run in reverse order of registration).
  await expectNothingStoredForRejectedRequests();
});

function noteAccepted(path: string, body: Record<string, unknown>, reply: Reply): void {
  if (reply.envelope.code !== 0) return;
  if (path === '/gateway/pay') accepted.pay.add(String(body['bizOrderNo']));
  if (path === '/gateway/transfer') accepted.transfer.add(String(body['bizTransferNo']));
  if (path === '/gateway/inqury') accepted.inquiry.add(String(body['bizInquryNo']));
}

/** The reply is a signed envelope whose status and code `op` documents, with data null on a failure. */
function expectDocumented(op: OperationDoc, reply: Reply, what: string): void {
  const { status, envelope } = reply;
  const about = `${op.operationId} ${what}: HTTP ${status} ${envelope.code} ${envelope.msg}`;
  expect(status, about).toBeLessThan(500);
  expect(reply.signed, `${about}: signature`).toBe(true);
  expect(op.statuses.has(status), `${about}: status not in the operation's responses`).toBe(true);
  expect(op.codes.has(envelope.code), `${about}: code not in the operation's x-codes`).toBe(true);
  expect(statusesOfCode.get(envelope.code)?.has(status), `${about}: status not documented for the code`).toBe(
    true,
  );
  expect(envelope.traceId).toMatch(/^[0-9a-f]{32}$/);
  if (envelope.code !== 0) expect(envelope.data, about).toBeNull();
}

/** Decimal places of a number as JavaScript writes it (`1e-7` has 7). */
function decimals(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

function resolve(schema: Schema): Schema {
  let current = schema;
  while (typeof current['$ref'] === 'string') {
    const name = (current['$ref'] as string).replace('#/components/schemas/', '');
    current = document.components.schemas[name] as Schema;
  }
  return current;
}

/** Values the schema accepts (the subset of JSON Schema the document uses). */
function arbitraryOf(input: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const type = schema['type'];
  if (type === 'object' || schema['properties']) return objectOf(schema);
  const branches = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (branches) return fc.oneof(...branches.map(arbitraryOf));
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t })));
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'number':
    case 'integer':
      return numberOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      // A short array, as long as the schema's minItems asks (transfer/batch wants at least one item).
      return fc.array(arbitraryOf((schema['items'] ?? {}) as Schema), {
        minLength: Number(schema['minItems'] ?? 0),
        maxLength: Math.max(3, Number(schema['minItems'] ?? 0)),
      });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = (schema['minLength'] as number | undefined) ?? 0;
  const max = (schema['maxLength'] as number | undefined) ?? 64;
  const fits = (v: string) => v.length >= min && v.length <= max;
  if (schema['format'] === 'uri') {
    // fc.webUrl is thorough but slow (tens of ms a value); hosts and paths of plain characters suffice here.
    return fc
      .tuple(
        fc.constantFrom('http', 'https'),
        fc.stringMatching(/^[a-z0-9]{1,20}(\.[a-z]{2,6}){0,2}(:[1-9][0-9]{1,4})?$/),
        fc.stringMatching(/^(\/[A-Za-z0-9._~-]{0,20}){0,4}(\?[a-z]{1,8}=[A-Za-z0-9]{0,12})?$/),
      )
      .map(([scheme, host, path]) => `${scheme}://${host}${path}`)
      .filter(fits);
  }
  if (schema['contentMediaType'] === 'application/json') {
    return fc
      .dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 12 }), fc.integer()), {
        maxKeys: 4,
      })
      .map((o) => JSON.stringify(o))
      .filter(fits);
  }
  if (typeof schema['pattern'] === 'string') {
    return fc.stringMatching(new RegExp(schema['pattern'] as string)).filter(fits);
  }
  return (
    fc
      .oneof(
        fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: max }),
        fc.string({ unit: 'binary', minLength: min, maxLength: max }),
      )
      // U+0000 is a JSON string the platform refuses (HTTP 400); the poisoned-text property covers it.
      .filter((v) => fits(v) && !v.includes('\u0000'))
  );
}

function numberOf(schema: Schema): fc.Arbitrary<number> {
  const step = (schema['multipleOf'] as number | undefined) ?? 1;
  const min = Math.ceil(((schema['minimum'] as number | undefined) ?? -1e6) / step);
  const max = Math.floor(((schema['maximum'] as number | undefined) ?? 1e6) / step);
  // Small amounts most of the time: they fit the sandbox's limits and a merchant's balance.
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 100_000) }) },
      fc.integer({ min, max }),
    )
    .map((n) => Number((n * step).toFixed(2)));
}

function objectOf(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set((schema['required'] ?? []) as string[]);
  // "one of a, b is required" (anyOf of required branches): one branch is chosen and its field is given.
  const branches = ((schema['anyOf'] ?? []) as Schema[]).map((b) => (b['required'] ?? []) as string[]);
  const forced = branches.length > 0 ? fc.constantFrom(...branches) : fc.constant([] as string[]);
  return forced.chain((names) => {
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) {
      const value = arbitraryOf(property);
      if (names.includes(name)) record[name] = value.filter((v) => v !== null && v !== '');
      else if (required.has(name)) record[name] = value;
      else record[name] = fc.option(value, { nil: undefined, freq: 2 });
    }
    return fc
      .record(record)
      .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
  });
}

/** A value of the wrong kind, or out of the range, for `schema`. */
function wrongValueOf(input: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  const core = ((schema['anyOf'] as Schema[] | undefined)?.[0] ?? schema) as Schema;
  const types = [core['type']].flat();
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom({}, [1], true)];
  if (types.includes('string')) {
    options.push(fc.integer());
    const max = core['maxLength'] as number | undefined;
    if (max !== undefined) options.push(fc.constant('x'.repeat(max + 1)));
    if (core['pattern'] || core['format'])
      options.push(fc.constantFrom('2026-13-01 10:00:00', '2026-02-30 10:00:00', 'ftp://x', 'x y'));
  }
  if (types.includes('number') || types.includes('integer')) {
    options.push(fc.constantFrom('100.5', -1, 0.001, 1e9));
  }
  if (types.includes('boolean')) options.push(fc.constantFrom('true', 0, 1));
  return fc.oneof(...options);
}

const operation = () => fc.constantFrom(...operations);

/** A body with the generated business fields and this merchant's common parameters, signed or not. */
function validBody(sign: boolean, fields: Record<string, unknown>) {
  const { sign: _sign, appId: _appId, mchNo: _mchNo, reqTime: _reqTime, nonceStr: _nonce, ...rest } = fields;
  return sign ? merchant.signed(rest) : { ...merchant.signed(rest), sign: 'bm90IGEgc2lnbmF0dXJl' };
}

describe('the gateway driven by its own OpenAPI document', () => {
  it('answers every operation with bodies its schema accepts, signed and not, as the document says', async () => {
    await fc.assert(
      fc.asyncProperty(
        operation().chain((op) => fc.tuple(fc.constant(op), arbitraryOf(op.schema), fc.boolean())),
        async ([op, fields, signed]) => {
          const body = validBody(signed, fields as Record<string, unknown>);
          expect(validators.get(op.path)!(body), JSON.stringify(validators.get(op.path)!.errors)).toBe(true);
          const reply = await merchant.send(op.path, body);
          expectDocumented(op, reply, signed ? 'valid signed' : 'valid unsigned');
          if (!signed) expect(reply.envelope.code).toBe(Codes.SIGNATURE_FAILED.code);
          noteAccepted(op.path, body, reply);
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it('refuses every body the schema refuses (a field missing, mistyped or out of range), signed or not', async () => {
    const mutated = operation().chain((op) => {
      const properties = (op.schema['properties'] ?? {}) as Record<string, Schema>;
      const names = Object.keys(properties).filter((name) => name !== 'sign');
      return fc
        .constantFrom(...names)
        .chain((name) =>
          fc.tuple(
            fc.constant(op),
            arbitraryOf(op.schema),
            fc.constant(name),
            fc.option(wrongValueOf(properties[name]!), { nil: undefined, freq: 4 }),
            fc.boolean(),
          ),
        );
    });
    await fc.assert(
      fc.asyncProperty(mutated, async ([op, fields, name, wrong, signed]) => {
        const {
          sign: _s,
          appId: _a,
          mchNo: _m,
          reqTime: _r,
          nonceStr: _n,
          ...rest
        } = fields as Record<string, unknown>;
        // An override replaces a business or common field after the defaults; undefined leaves it out.
        const signedBody = merchant.signed(rest, { [name]: wrong });
        const body = JSON.parse(
          JSON.stringify(signed ? signedBody : { ...signedBody, sign: 'bm90IGEgc2lnbmF0dXJl' }),
        ) as Record<string, unknown>;
        // Only what the document itself refuses counts here.
        fc.pre(!validators.get(op.path)!(body));
        const reply = await merchant.send(op.path, body);
        expectDocumented(op, reply, `invalid ${name}=${JSON.stringify(wrong)}`);
        expect(reply.envelope.code, `${op.operationId} accepted an invalid ${name}`).not.toBe(0);
        noteAccepted(op.path, body, reply);
      }),
      { numRuns: runs(120) },
    );
  });

  it('answers JSON text the platform cannot hold with HTTP 400 and 10002, in any field, before authentication', async () => {
    const poison = fc.constantFrom(
      '"a\\u0000b"',
      '"\\ud800"',
      '"x\\udc00"',
      '1e400',
      '-1e999',
      `${'['.repeat(40)}${']'.repeat(40)}`,
    );
    await fc.assert(
      fc.asyncProperty(
        operation().chain((op) =>
          fc.tuple(fc.constant(op), arbitraryOf(op.schema), poison, fc.boolean(), fc.boolean()),
        ),
        async ([op, fields, token, signed, inCommon]) => {
          const body = validBody(signed, fields as Record<string, unknown>);
          const target = inCommon ? 'mchNo' : 'extra';
          const text = JSON.stringify({ ...body, [target]: '@@' }).replace('"@@"', token);
          const reply = await merchant.send(op.path, null, { raw: text });
          expectDocumented(op, reply, `poisoned ${target}=${token.slice(0, 12)}`);
          expect(reply.status).toBe(400);
          expect(reply.envelope.code).toBe(Codes.INVALID_BODY.code);
          expect(reply.envelope.msg).toContain(target);
        },
      ),
      { numRuns: runs(60) },
    );
  });

  it('answers any other method on an operation with 405 and Allow: POST, and unknown paths with 404', async () => {
    const method = fc.constantFrom(
      'GET',
      'PUT',
      'DELETE',
      'PATCH',
      'OPTIONS',
      'TRACE',
      'PROPFIND',
      'QUERY',
      'MKCOL',
      'SEARCH',
    );
    await fc.assert(
      fc.asyncProperty(operation(), method, fc.boolean(), async (op, name, unknownPath) => {
        const path = unknownPath ? `${op.path}/x` : op.path;
        // No body, with a JSON content type: a wrong path or method is answered before any body is read.
        // node:http rather than fetch, which refuses methods such as TRACE.
        const response = await httpRequest(unknownPath ? 'POST' : name, `${stack.urls.gateway}${path}`);
        const envelope = JSON.parse(response.body) as Envelope;
        const reply = {
          status: response.status,
          envelope,
          signed: verifyEnvelope(envelope, merchant.platformKey),
        };
        expectDocumented(op, reply, `${name} ${path}`);
        expect(reply.envelope.code).toBe(Codes.INVALID_PARAMETER.code);
        if (unknownPath) expect(reply.status).toBe(404);
        else {
          expect(reply.status).toBe(405);
          expect(response.allow).toBe('POST');
        }
      }),
      { numRuns: runs(60) },
    );
  });

  it('answers what the HTTP parser refuses (bad method tokens, bad headers) with a signed 400 envelope', async () => {
    const url = new URL(stack.urls.gateway);
    const requestLine = fc.oneof(
      fc.constantFrom(
        'GE(T /gateway/pay HTTP/1.1',
        'P@ST /gateway/pay HTTP/1.1',
        'POST /gateway/pay HTTP/9.9',
        'POST  HTTP/1.1',
      ),
      fc
        .string({
          unit: fc.constantFrom('{', '}', '"', '\u0001', ' ', 'A', '/'),
          minLength: 1,
          maxLength: 12,
        })
        .map((token) => `${token} /gateway/pay HTTP/1.1`),
    );
    const header = fc.constantFrom(
      'Host: x',
      'Host: x\r\nBad Header: 1',
      'Host: x\r\nContent-Length: -1',
      `Host: x\r\nX: ${'a'.repeat(20_000)}`,
    );
    await fc.assert(
      fc.asyncProperty(requestLine, header, async (line, headers) => {
        const raw = await rawExchange(Number(url.port), `${line}\r\n${headers}\r\n\r\n`);
        const status = Number(raw.slice(9, 12));
        const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
        // Some lines are a well-formed request after all (a method token of letters): those are routed.
        if (status === 400) {
          const envelope = JSON.parse(body) as Envelope;
          expect(verifyEnvelope(envelope, merchant.platformKey), raw).toBe(true);
          expect(envelope.code).toBe(Codes.INVALID_BODY.code);
          expect(envelope.data).toBeNull();
        } else {
          expect([404, 405], raw).toContain(status);
          expect(verifyEnvelope(JSON.parse(body) as Envelope, merchant.platformKey)).toBe(true);
        }
      }),
      { numRuns: runs(30) },
    );
  });
});

function httpRequest(method: string, url: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        const allow = res.headers['allow'];
        resolve({ status: res.statusCode ?? 0, body, ...(allow === undefined ? {} : { allow }) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => resolve(received));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' ? resolve(received) : reject(err),
    );
  });
}

async function expectNothingStoredForRejectedRequests(): Promise<void> {
  const stored = async (database: Parameters<Stack['databaseUrl']>[0], sql: string) => {
    const client = new pg.Client({ connectionString: stack.databaseUrl(database) });
    await client.connect();
    try {
      const { rows } = await client.query<{ no: string }>(sql, [merchant.mchNo]);
      return rows.map((r) => r.no).sort();
    } finally {
      await client.end();
    }
  };
  expect(await stored('payments', 'select biz_order_no as no from pay_orders where mch_no = $1')).toEqual(
    [...accepted.pay].sort(),
  );
  expect(await stored('transfers', 'select biz_transfer_no as no from transfers where mch_no = $1')).toEqual(
    [...accepted.transfer].sort(),
  );
  expect(await stored('transfers', 'select biz_inqury_no as no from inquiries where mch_no = $1')).toEqual(
    [...accepted.inquiry].sort(),
  );
}

describe('the other HTTP endpoints under bad input', () => {
  // Text and numbers nothing downstream can hold, as they arrive in a URL and in JSON text.
  const inUrl = fc.oneof(
    fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%C0%80', '%E0%A4%A', '%'),
    fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent),
  );
  const inJson = fc.constantFrom(
    '"a\\u0000"',
    '"\\ud800"',
    '"\\udfff x"',
    '1e400',
    `${'['.repeat(40)}${']'.repeat(40)}`,
  );
  const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' };

  const targets = () => {
    const routerNotices = `http://127.0.0.1:${stack.ports.routerNotices}`;
    return fc.oneof(
      inUrl.map((p) => ({ method: 'GET', url: `${stack.urls.admin}/admin/merchants/${p}` })),
      inUrl.map((p) => ({ method: 'GET', url: `${stack.urls.admin}/admin/routes/${p}` })),
      inJson.map((v) => ({
        method: 'POST',
        url: `${stack.urls.admin}/admin/merchants`,
        body: `{"mchNo":"MPOISON","name":${v},"publicKey":"x"}`,
      })),
      inJson.map((v) => ({
        method: 'PATCH',
        url: `${stack.urls.admin}/admin/merchants/${merchant.mchNo}`,
        body: `{"name":${v}}`,
      })),
      inJson.map((v) => ({
        method: 'POST',
        url: `${stack.urls.admin}/admin/routes`,
        body: `{"id":"r1","name":${v}}`,
      })),
      inUrl.map((p) => ({ method: 'GET', url: `${stack.urls.admin}/admin/deliveries?orderNo=${p}` })),
      inUrl.map((p) => ({ method: 'GET', url: `${stack.urls.admin}/admin/deliveries/${p}` })),
      inUrl.map((p) => ({ method: 'POST', url: `${stack.urls.admin}/admin/deliveries/${p}/resend` })),
      inUrl.map((p) => ({ method: 'POST', url: `${routerNotices}/notices/${p}`, body: '{}' })),
      inJson.map((v) => ({ method: 'POST', url: `${routerNotices}/notices/sandbox`, body: `{"id":${v}}` })),
    );
  };

  it('answers the admin APIs, the notifier and the router without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(targets(), async (target: { method: string; url: string; body?: string }) => {
        const response = await fetch(target.url, {
          method: target.method,
          headers: admin,
          ...(target.body === undefined ? {} : { body: target.body }),
        });
        await response.text();
        expect(response.status, `${target.method} ${target.url} ${target.body ?? ''}`).toBeLessThan(500);
      }),
      { numRuns: runs(80) },
    );
  });
});
