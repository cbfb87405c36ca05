import { readFileSync } from 'node:fs';
import { createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { type CodeName, Codes, parsePublicKey, verifyObject } from '@agentpay/wire';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { httpStatusFor } from '../services/gateway/src/merchant-api/merchant-api.js';
import { merchantRoutes } from '../services/gateway/src/merchant-api/merchant-api.routes.js';
import { buildOpenApiDocument } from '../services/gateway/src/merchant-api/openapi/openapi.document.js';
import { registerOpenApiRoutes } from '../services/gateway/src/merchant-api/openapi/openapi.routes.js';
import { requestSchema } from '../services/gateway/src/merchant-api/openapi/request-schemas.js';
import * as examples from '../services/gateway/src/merchant-api/openapi/signing-examples.js';
import { commonParams } from '../services/gateway/src/merchant-api/schemas.js';

// The OpenAPI document of the merchant API: valid OpenAPI 3.1, one operation per route the gateway
// registers, every envelope code with its HTTP status, request schemas that accept and refuse what the
// gateway's zod schemas accept and refuse, examples equal to the signing vectors, docs/openapi.json current.

const document = buildOpenApiDocument();
const unused = undefined as never;
const routes = merchantRoutes({
  payments: unused,
  transfers: unused,
  router: unused,
  timeZone: 'America/Mexico_City',
  grpcTimeoutMs: 0,
});

type Json = Record<string, unknown>;
const components = document.components.schemas;

interface Media {
  schema: Json;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  requestBody: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
/** The POST operation of `path`; throws when the document has none. */
function operation(path: string): Operation {
  const found = document.paths[path]?.['post'];
  if (!found) throw new Error(`no POST ${path} in the document`);
  return found as unknown as Operation;
}
const requestSchemaOf = (path: string) => operation(path).requestBody.content['application/json']!.schema;
const replySchemaOf = (path: string) =>
  operation(path).responses['200']!.content!['application/json']!.schema;

/** The schema a JSON pointer into a value of `schema` lands on, following $ref, anyOf and array items. */
function schemaAt(schema: Json, pointer: string): Json | undefined {
  let node: Json | undefined = schema;
  for (const part of pointer.split('/').slice(1)) {
    node = resolveSchema(node);
    if (!node) return undefined;
    if (/^\d+$/.test(part)) node = node['items'] as Json | undefined;
    else node = (node['properties'] as Record<string, Json> | undefined)?.[part];
  }
  return node;
}

/** `schema` with $refs followed and an `anyOf` narrowed to its first branch that is not null. */
function resolveSchema(schema: Json | undefined): Json | undefined {
  let node = schema;
  for (;;) {
    if (!node) return undefined;
    const ref = node['$ref'];
    if (typeof ref === 'string') node = components[ref.split('/').pop() ?? ''];
    else if (Array.isArray(node['anyOf']))
      node = (node['anyOf'] as Json[]).find((branch) => branch['type'] !== 'null');
    else return node;
  }
}

function ajv() {
  const instance = new Ajv2020({ strict: true, allErrors: true, multipleOfPrecision: 9 });
  addFormats.default(instance);
  // OpenAPI's own keywords and our extensions are annotations, not validation.
  for (const keyword of ['example', 'x-name', 'x-http-status']) instance.addKeyword(keyword);
  for (const [name, schema] of Object.entries(components)) {
    instance.addSchema(schema, `#/components/schemas/${name}`);
  }
  return instance;
}

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') out.push(item);
      else refsIn(item, out);
    }
  }
  return out;
}

function resolvePointer(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part.replaceAll('~1', '/')], document);
}

describe('validity', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every $ref resolving inside the document', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(resolvePointer(ref), ref).toBeDefined();
  });

  it('has component schemas that compile as JSON Schema 2020-12 in strict mode', () => {
    const instance = ajv();
    for (const name of Object.keys(components)) {
      expect(() => instance.getSchema(`#/components/schemas/${name}`), name).not.toThrow();
    }
  });
});

describe('coverage', () => {
  it('has exactly one POST operation per route the gateway registers', () => {
    expect(Object.keys(document.paths).sort()).toEqual(routes.map((r) => r.path).sort());
    expect(routes).toHaveLength(20);
    for (const item of Object.values(document.paths)) expect(Object.keys(item)).toEqual(['post']);
  });

  it('documents every code of the wire table, with the HTTP status the gateway sends it with', () => {
    const documented = (components['Code']?.['oneOf'] ?? []) as {
      const: number;
      'x-name': string;
      'x-http-status': number[];
    }[];
    expect(documented.map((c) => c.const).sort()).toEqual(
      Object.values(Codes)
        .map((c) => c.code)
        .sort(),
    );
    for (const entry of documented) {
      const name = entry['x-name'] as CodeName;
      expect(Codes[name].code).toBe(entry.const);
      // 10003 is only ever sent by the body parser, with the 415 it sets itself.
      if (name !== 'UNSUPPORTED_CONTENT_TYPE')
        expect(entry['x-http-status'], name).toContain(httpStatusFor(name));
    }
    expect(documented.find((c) => c.const === 10003)?.['x-http-status']).toEqual([415]);
    const overview = (document['info'] as { description: string }).description;
    for (const { code } of Object.values(Codes)) expect(overview).toContain(`| \`${code}\` |`);
  });

  it('describes the callback as webhooks for payment orders, transfers and refunds', () => {
    const webhooks = document['webhooks'] as Record<string, { post: Json }>;
    expect(Object.keys(webhooks).sort()).toEqual([
      'payOrderStatusChanged',
      'refundStatusChanged',
      'transferStatusChanged',
    ]);
    expect(JSON.stringify(webhooks)).toContain('SUCCESS');
  });

  it('gives every operation a reply schema whose data is the documented shape', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const reply = (item['post'] as Json)['responses'] as Record<string, Json>;
      expect(Object.keys(reply).sort(), path).toEqual([
        '200',
        '400',
        '404',
        '405',
        '413',
        '415',
        '429',
        '500',
        '503',
      ]);
    }
  });
});

describe('request schemas agree with the gateway zod schemas', () => {
  const instance = ajv();
  const base = { mchNo: 'M1', reqTime: '2026-11-21 10:15:00', sign: 'c2lnbg==' };
  const valid: Record<string, Json> = {
    '/gateway/pay': {
      bizOrderNo: 'B1',
      title: 'T',
      method: 'mex_virtual_account',
      amount: 100.5,
      notifyUrl: 'https://merchant.example/notify',
      expiredTime: '2026-11-22 10:15:00',
      extraParam: '{"a":1}',
    },
    '/gateway/options/pay-methods': {},
    '/gateway/options/payee-types': {},
    '/gateway/options/payee-codes': { payeeType: 'spei_transfer' },
    '/gateway/close': { orderNo: 'P1', useCancel: true },
    '/gateway/inqury': { bizInquryNo: 'I1', payeeType: 'spei_transfer', payeeAccount: '646180110400000007' },
    '/gateway/transfer': {
      bizTransferNo: 'T1',
      amount: 0.01,
      payeeType: 'user_id',
      payeeAccount: 'u-1',
      notifyUrl: 'http://127.0.0.1:9000/cb',
    },
    '/gateway/query/payOrder': { bizOrderNo: 'B1' },
    '/gateway/query/transferOrder': { transferNo: 'T1' },
    '/gateway/refund': {
      orderNo: 'P1',
      bizRefundNo: 'R1',
      amount: 10.5,
      notifyUrl: 'https://merchant.example/r',
    },
    '/gateway/query/refund': { bizRefundNo: 'R1' },
    '/gateway/sync/order/pay': { orderNo: 'P1' },
    '/gateway/query/balance': {},
    '/gateway/query/balanceRecords': { startTime: '2026-11-01 00:00:00', endTime: '2026-11-08 00:00:00' },
    '/gateway/query/limits': {},
    '/gateway/payee/register': {
      payeeType: 'spei_transfer',
      payeeAccount: '646180110400000007',
      payeeName: 'Ana Perez',
    },
    '/gateway/query/payees': { limit: 20 },
    '/gateway/payee/remove': { payeeId: 'PE1' },
    '/gateway/transfer/batch': {
      bizBatchNo: 'B1',
      notifyUrl: 'https://merchant.example/notify',
      items: [
        { bizTransferNo: 'T1', amount: 0.01, payeeType: 'user_id', payeeAccount: 'u-1' },
        { bizTransferNo: 'T2', amount: 12.5, payeeType: 'spei_transfer', payeeAccount: '646180110400000007' },
      ],
    },
    '/gateway/query/transferBatch': { bizBatchNo: 'B1', cursor: 'T1', limit: 100 },
  };
  // Changes to a valid body, each applied where the field exists; both validators must agree on each.
  const mutations: [string, Json][] = [
    ['amount 0.3', { amount: 0.3 }],
    ['amount 99999999.99', { amount: 99_999_999.99 }],
    ['amount 0', { amount: 0 }],
    ['amount 0.001', { amount: 0.001 }],
    ['amount 1.005', { amount: 1.005 }],
    ['amount too large', { amount: 100_000_000 }],
    ['amount as a string', { amount: '100.5' }],
    ['bizOrderNo empty', { bizOrderNo: '' }],
    ['bizOrderNo of 101 characters', { bizOrderNo: 'x'.repeat(101) }],
    ['bizOrderNo of 100 characters', { bizOrderNo: 'x'.repeat(100) }],
    ['title of 101 characters', { title: 'x'.repeat(101) }],
    ['description of 51 characters', { description: 'x'.repeat(51) }],
    ['payeeName of 50 characters', { payeeName: 'x'.repeat(50) }],
    ['payeeName of 51 characters', { payeeName: 'x'.repeat(51) }],
    ['transferNo of 33 characters', { transferNo: 'x'.repeat(33) }],
    ['notifyUrl ftp', { notifyUrl: 'ftp://merchant.example/notify' }],
    ['notifyUrl not a URL', { notifyUrl: 'merchant notify' }],
    ['notifyUrl of 201 characters', { notifyUrl: `https://m.example/${'x'.repeat(183)}` }],
    ['expiredTime with slashes', { expiredTime: '2026/11/22 10:15:00' }],
    ['useCancel as a string', { useCancel: 'true' }],
    ['payeeType as a number', { payeeType: 7 }],
    ['extraParam of 2049 characters', { extraParam: `"${'x'.repeat(2047)}"` }],
    // Null and '' mean absent for every type, required fields included (then they are missing).
    ['useCancel null', { useCancel: null }],
    ["useCancel ''", { useCancel: '' }],
    ['useCancel 0', { useCancel: 0 }],
    ['attach null', { attach: null }],
    ["expiredTime ''", { expiredTime: '' }],
    ['expiredTime null', { expiredTime: null }],
    ["notifyUrl ''", { notifyUrl: '' }],
    ['extraParam null', { extraParam: null }],
    ['amount null', { amount: null }],
    ["amount ''", { amount: '' }],
    ['bizOrderNo null', { bizOrderNo: null }],
    ['payeeType null', { payeeType: null }],
    // Date-times name real dates and times.
    ['expiredTime in month 13', { expiredTime: '2026-13-01 10:15:00' }],
    ['expiredTime on 30 February', { expiredTime: '2028-02-30 10:15:00' }],
    ['expiredTime on 29 February of 2027', { expiredTime: '2027-02-29 10:15:00' }],
    ['expiredTime at hour 24', { expiredTime: '2026-11-22 24:00:00' }],
    ['expiredTime at minute 60', { expiredTime: '2026-11-22 10:60:00' }],
    ['expiredTime on 31 April', { expiredTime: '2026-04-31 10:15:00' }],
    // One of the two references is required; null or '' does not count.
    ['neither order reference', { orderNo: undefined, bizOrderNo: undefined }],
    ['neither transfer reference', { transferNo: undefined, bizTransferNo: undefined }],
    ['both order references', { orderNo: 'P1', bizOrderNo: 'B1' }],
    ['order references null and empty', { orderNo: null, bizOrderNo: '' }],
    ['transfer references null and empty', { transferNo: null, bizTransferNo: '' }],
    ['bizTransferNo only', { transferNo: undefined, bizTransferNo: 'T1' }],
  ];
  const common: [string, Json][] = [
    ['mchNo of 33 characters', { mchNo: 'M'.repeat(33) }],
    ['reqTime in ISO form', { reqTime: '2026-11-21T10:15:00Z' }],
    ['reqTime in month 13', { reqTime: '2026-13-21 10:15:00' }],
    ['reqTime on 30 February', { reqTime: '2026-02-30 10:15:00' }],
    ['reqTime at hour 24', { reqTime: '2026-11-21 24:00:00' }],
    ['reqTime on 29 February of a leap year', { reqTime: '2028-02-29 10:15:00' }],
    ['reqTime on 29 February of 1900', { reqTime: '1900-02-29 10:15:00' }],
    ['reqTime on 29 February of 2000', { reqTime: '2000-02-29 10:15:00' }],
    ['reqTime null', { reqTime: null }],
    ['nonceStr null', { nonceStr: null }],
    ["appId ''", { appId: '' }],
    ['sign empty', { sign: '' }],
    ['nonceStr of 33 characters', { nonceStr: 'n'.repeat(33) }],
    ['clientIp of 64 characters', { clientIp: '1'.repeat(64) }],
    ['appId of 33 characters', { appId: 'a'.repeat(33) }],
  ];

  for (const route of routes) {
    const schema = requestSchemaOf(route.path);
    const validate = instance.compile(schema);
    const zodAccepts = (body: Json) =>
      commonParams.safeParse(body).success && route.schema.safeParse(body).success;
    const body: Json = { ...base, ...valid[route.path] };

    it(`${route.path}: both accept the valid body, and both refuse it without each required field`, () => {
      expect(zodAccepts(body)).toBe(true);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      for (const field of (schema['required'] ?? []) as string[]) {
        const { [field]: _, ...without } = body;
        expect(zodAccepts(without), field).toBe(false);
        expect(validate(without), field).toBe(false);
      }
    });

    const applicable = [...common, ...mutations].filter(([, change]) =>
      Object.keys(change).every((k) => k in ((schema['properties'] ?? {}) as Json)),
    );
    it.each(applicable)(`${route.path}: agrees on %s`, (_name, change) => {
      const mutated = Object.fromEntries(
        Object.entries({ ...body, ...change }).filter(([, value]) => value !== undefined),
      );
      expect(validate(mutated)).toBe(zodAccepts(mutated));
    });
  }

  it('refuses to generate a schema whose field has a refinement nobody documented', () => {
    const undocumented = z.object({ color: z.string().refine((v) => v !== 'red', { message: 'not red' }) });
    expect(() => requestSchema(undocumented)).toThrow(/"color" has a refinement or transform/);
    const transformed = z.object({ size: z.number().transform((n) => n * 2) });
    expect(() => requestSchema(transformed)).toThrow(/"size"/);
  });

  it('states amount limits, multipleOf 0.01 and the required fields of pay', () => {
    const schema = requestSchemaOf('/gateway/pay') as {
      properties: Record<string, Json>;
      required: string[];
    };
    expect(schema.properties['amount']).toMatchObject({
      type: 'number',
      minimum: 0.01,
      maximum: 99_999_999.99,
      multipleOf: 0.01,
    });
    expect(schema.properties['bizOrderNo']).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(schema.properties['notifyUrl']).toMatchObject({
      anyOf: [{ format: 'uri', maxLength: 200 }, { enum: [null, ''] }],
    });
    expect([...schema.required].sort()).toEqual([
      'amount',
      'bizOrderNo',
      'mchNo',
      'method',
      'reqTime',
      'sign',
      'title',
    ]);
  });
});

describe('signing rules and examples', () => {
  const vectors = JSON.parse(
    readFileSync(new URL('../sdks/vectors/signing.json', import.meta.url), 'utf8'),
  ) as {
    keys: Record<'merchant' | 'platform', { publicKey: string }>;
    cases: { name: string; signer: 'merchant' | 'platform'; object: Json; canonical: string; sign: string }[];
  };

  it('copies each worked example from the signing vectors unchanged, and each signature verifies', () => {
    const copies = [
      examples.PAY_REQUEST_EXAMPLE,
      examples.PAY_REPLY_EXAMPLE,
      examples.OPTIONS_REPLY_EXAMPLE,
      examples.ERROR_REPLY_EXAMPLE,
      examples.PAY_CALLBACK_EXAMPLE,
    ];
    for (const copy of copies) {
      const vector = vectors.cases.find((c) => c.name === copy.vector);
      expect(vector, copy.vector).toBeDefined();
      expect({ object: copy.object, canonical: copy.canonical, sign: copy.sign }).toEqual({
        object: vector!.object,
        canonical: vector!.canonical,
        sign: vector!.sign,
      });
      expect(
        verifyObject(copy.object, copy.sign, parsePublicKey(vectors.keys[vector!.signer].publicKey)),
      ).toBe(true);
    }
    expect(examples.EXAMPLE_KEYS.merchantPublicKey).toBe(vectors.keys.merchant.publicKey);
    expect(examples.EXAMPLE_KEYS.platformPublicKey).toBe(vectors.keys.platform.publicKey);
  });

  it('carries the rules and the worked example in the overview', () => {
    const overview = (document['info'] as { description: string }).description;
    expect(overview).toContain(examples.PAY_REQUEST_EXAMPLE.canonical);
    expect(overview).toContain(examples.PAY_REQUEST_EXAMPLE.sign);
    expect(overview).toContain('RFC 8785');
    expect(document['x-agentpay-signing']).toMatchObject({
      example: { canonical: examples.PAY_REQUEST_EXAMPLE.canonical },
    });
  });

  it('has every example valid against its own schema: request, reply, callback and field examples', () => {
    const instance = ajv();
    let checked = 0;
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) visit(item, `${where}/${i}`);
        return;
      }
      if (!node || typeof node !== 'object') return;
      const object = node as Json;
      // A media type object: its schema and a map of named examples.
      if (object['schema'] && object['examples'] && !Array.isArray(object['examples'])) {
        const validate = instance.compile(object['schema'] as Json);
        for (const [name, example] of Object.entries(
          object['examples'] as Record<string, { value: unknown }>,
        )) {
          expect(validate(example.value), `${where} ${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
          checked++;
        }
      }
      // A schema with JSON Schema `examples`.
      if (Array.isArray(object['examples'])) {
        const { examples: values, ...schema } = object;
        const validate = instance.compile(schema);
        for (const value of values as unknown[]) {
          expect(
            validate(value),
            `${where}: ${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`,
          ).toBe(true);
          checked++;
        }
      }
      for (const [key, value] of Object.entries(object)) {
        if (key !== 'examples') visit(value, `${where}/${key}`);
      }
    };
    visit(document.paths, '#/paths');
    visit(document['webhooks'], '#/webhooks');
    visit(components, '#/components/schemas');
    expect(checked).toBeGreaterThan(10);
    // The pay request example of the signing vectors has `attach: null`: null means absent.
    const pay = operation('/gateway/pay').requestBody.content['application/json']!;
    expect(pay.examples?.['vector']?.value).toMatchObject({ attach: null });
  });

  it('links each create and option to the calls that use its result, with fields those calls take', () => {
    const byId = new Map<string, Json>();
    for (const [path, item] of Object.entries(document.paths)) {
      byId.set(String(item['post']?.['operationId']), requestSchemaOf(path));
    }
    const linked: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const links = ((item['post'] as Json)['responses'] as Record<string, Json>)['200']?.['links'] as
        | Record<string, { operationId: string; requestBody: Record<string, string> }>
        | undefined;
      for (const link of Object.values(links ?? {})) {
        const target = byId.get(link.operationId);
        expect(target, `${path} -> ${link.operationId}`).toBeDefined();
        for (const [field, expression] of Object.entries(link.requestBody)) {
          expect(Object.keys(target!['properties'] as Json), `${link.operationId}.${field}`).toContain(field);
          const [, source, pointer] = /^\{\$(response|request)\.body#(\/[\w/]+)\}$/.exec(expression) ?? [];
          // The pointer names a field the source actually has: the reply's data, or this call's request.
          const root = source === 'request' ? requestSchemaOf(path) : replySchemaOf(path);
          expect(schemaAt(root, pointer ?? ''), `${path} ${expression}`).toBeDefined();
        }
        linked.push(`${path} -> ${link.operationId}`);
      }
    }
    expect(linked).toEqual(
      expect.arrayContaining([
        '/gateway/pay -> queryPayOrder',
        '/gateway/pay -> close',
        '/gateway/pay -> syncPayOrder',
        '/gateway/transfer -> queryTransferOrder',
        '/gateway/options/pay-methods -> pay',
        '/gateway/options/payee-types -> payeeCodes',
        '/gateway/options/payee-codes -> transfer',
      ]),
    );
  });

  it('has date-time patterns that refuse impossible dates and times, here and in replies', () => {
    const reqTime = (requestSchemaOf('/gateway/pay')['properties'] as Record<string, Json>)['reqTime']!;
    const resTime = ((components['ErrorEnvelope']!['properties'] as Record<string, Json>)['resTime'] ??
      {}) as Json;
    for (const schema of [reqTime, resTime]) {
      const pattern = new RegExp(String(schema['pattern']));
      for (const ok of [
        '2026-11-21 10:15:00',
        '2028-02-29 00:00:00',
        '2000-02-29 23:59:59',
        '2026-12-31 23:59:59',
      ])
        expect(pattern.test(ok), ok).toBe(true);
      for (const bad of [
        '2026-13-01 10:00:00',
        '2026-00-10 10:00:00',
        '2026-02-30 10:00:00',
        '2027-02-29 10:00:00',
        '1900-02-29 10:00:00',
        '2026-04-31 10:00:00',
        '2026-11-21 24:00:00',
        '2026-11-21 10:60:00',
        '2026-11-21 10:15:60',
        '2026-11-21T10:15:00',
      ])
        expect(pattern.test(bad), bad).toBe(false);
    }
  });

  it('states "one of orderNo, bizOrderNo" and nullable optional fields in the schema itself', () => {
    for (const path of ['/gateway/close', '/gateway/query/payOrder', '/gateway/sync/order/pay']) {
      const anyOf = requestSchemaOf(path)['anyOf'] as { required: string[] }[];
      expect(anyOf.map((branch) => branch.required)).toEqual([['orderNo'], ['bizOrderNo']]);
    }
    const transfer = requestSchemaOf('/gateway/query/transferOrder')['anyOf'] as { required: string[] }[];
    expect(transfer.map((branch) => branch.required)).toEqual([['transferNo'], ['bizTransferNo']]);
    const close = requestSchemaOf('/gateway/close')['properties'] as Record<string, Json>;
    expect(close['useCancel']).toMatchObject({ anyOf: [{ type: 'boolean' }, { enum: [null, ''] }] });
    expect(close['orderNo']).toMatchObject({ type: ['string', 'null'] });
  });

  it('has example replies and callbacks that match their own schemas', () => {
    const instance = ajv();
    const content = operation('/gateway/pay').responses['200']?.content?.['application/json'];
    const validate = instance.compile(content?.schema ?? {});
    for (const example of Object.values(content?.examples ?? {})) {
      expect(validate(example.value), JSON.stringify(validate.errors)).toBe(true);
    }
    const callback = instance.getSchema('#/components/schemas/PayOrderCallback')!;
    expect(
      callback({ ...examples.PAY_CALLBACK_EXAMPLE.object, sign: examples.PAY_CALLBACK_EXAMPLE.sign }),
    ).toBe(true);
  });
});

describe('publication', () => {
  it('docs/openapi.json is the current document (run npm run openapi after changing the API)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('docs/merchant-api.md lists every code and carries the worked example of the vectors', () => {
    const guide = readFileSync(new URL('../docs/merchant-api.md', import.meta.url), 'utf8');
    for (const { code, msg } of Object.values(Codes))
      expect(guide).toMatch(new RegExp(`\\| ${code} +\\| ${msg} +\\|`));
    expect(guide).toContain(examples.PAY_REQUEST_EXAMPLE.canonical);
    expect(guide).toContain(examples.PAY_REQUEST_EXAMPLE.sign);
    expect(guide).toContain(examples.EXAMPLE_KEYS.merchantPublicKey.trim());
  });

  it('serves GET /openapi.json and a self-contained GET /docs page naming every path and code', async () => {
    const app = createHttpServer(createLogger({ service: 'openapi-test', level: 'silent' }));
    registerOpenApiRoutes(app, routes);
    try {
      const json = await app.inject({ method: 'GET', url: '/openapi.json' });
      expect(json.statusCode).toBe(200);
      expect(json.headers['content-type']).toContain('application/json');
      expect(json.json()).toEqual(JSON.parse(JSON.stringify(document)));

      const page = await app.inject({ method: 'GET', url: '/docs' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const html = page.body;
      for (const path of Object.keys(document.paths)) expect(html).toContain(path);
      for (const { code } of Object.values(Codes)) expect(html).toContain(`<code>${code}</code>`);
      expect(html).toContain(examples.PAY_REQUEST_EXAMPLE.sign);
      // Nothing fetched from elsewhere: no script, no stylesheet or image from a URL.
      expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    } finally {
      await app.close();
    }
  });
});
