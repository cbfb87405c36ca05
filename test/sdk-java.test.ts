import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalString, jcs } from '@agentpay/wire';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeSdkChecks } from './support/sdk-suite.js';
import { requireToolchain } from './support/sdks.js';

// The Java SDK (sdks/java): the checks every SDK passes (its run-tests with every signing vector, its
// endpoint table against docs/openapi.json), and beyond them ECMAScript's number text and the platform's
// canonical JSON on generated inputs, and its reply records against the document's schemas. Built with
// the JDK alone (sdks/java/build), no Maven.

const SDK_DIR = fileURLToPath(new URL('../sdks/java/', import.meta.url));
const CLASSPATH = `${SDK_DIR}target/classes:${SDK_DIR}target/test-classes`;

/** Runs a Java class of the SDK's tests with `input` on stdin; fails on a non-zero exit. */
function java(args: string[], input = ''): string {
  return execFileSync('java', ['-cp', CLASSPATH, ...args], {
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

beforeAll(async () => {
  await requireToolchain('java');
  // Compiles once, with room for a loaded machine; run-tests then finds the classes up to date.
  execFileSync(`${SDK_DIR}build`, ['test-classes'], { stdio: 'inherit', timeout: 600_000 });
}, 600_000);

// The checks every SDK passes: its run-tests (every vector, the unit tests) and its endpoint table.
describeSdkChecks('java');

describe('Java SDK, beyond the shared checks', () => {
  it('writes every number as ECMAScript String(n): integers, amounts, exponents, extremes, random doubles', () => {
    const numbers: number[] = [
      0,
      -0,
      5,
      100,
      100.5,
      0.01,
      0.1,
      0.1 + 0.2,
      12.34,
      99999999.99,
      1e-7,
      1.5e-7,
      1e-6,
      123e-20,
      1e20,
      1e21,
      2e23,
      2 ** 53 + 2,
      2 ** 53,
      5e-324,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      -20,
      1 / 3,
    ];
    for (let i = 0; i < 2000; i++) numbers.push(Math.round(Math.random() * 1e10) / 100); // amounts
    for (let i = 0; i < 2000; i++) {
      const bits = new DataView(randomBytes(8).buffer);
      const n = bits.getFloat64(0);
      if (Number.isFinite(n)) numbers.push(n);
    }
    const hex = numbers.map((n) => {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, n);
      return view.getBigUint64(0).toString(16);
    });
    const written = java(['com.agentpay.merchant.Conformance', 'numbers'], hex.join('\n')).trim().split('\n');
    expect(written).toHaveLength(numbers.length);
    const wrong = numbers.flatMap((n, i) =>
      written[i] === String(n) ? [] : [`${String(n)} → ${written[i]}`],
    );
    expect(wrong).toEqual([]);
  });

  it("writes nested objects as the platform's RFC 8785 text: nested nulls kept, keys sorted, text escaped", () => {
    const samples: unknown[] = [
      { customer: 'C-9', tags: ['a', 'b'], note: null, amount: 5, tiny: 1e-7 },
      {
        z: { b: null, a: [1, 2.5, { y: true, x: false }] },
        ñ: 'café — ñ',
        '\u{1F600}': 'emoji',
        '\uFB33': 'x',
      },
      ['quote " backslash \\ newline \n tab \t control \u0001', 100.5, null, [], {}],
      { big: 1e21, small: 5e-324, neg: -0.01, int: 12345678901234 },
    ];
    for (let i = 0; i < 200; i++) {
      samples.push({
        [`k${randomBytes(2).toString('hex')}`]: Math.random() * 10 ** Math.floor(Math.random() * 30 - 15),
        nested: {
          value: Math.round(Math.random() * 1e6) / 100,
          missing: null,
          text: randomBytes(4).toString('base64'),
        },
      });
    }
    const lines = java(
      ['com.agentpay.merchant.Conformance', 'jcs'],
      samples.map((s) => JSON.stringify(s)).join('\n'),
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string);
    expect(lines).toEqual(samples.map((s) => jcs(s)));
    // And the top-level rule on the same objects: only top-level nulls are dropped.
    expect(canonicalString({ extraParam: { a: null }, attach: null })).toBe('extraParam={"a":null}');
  });

  it('has a typed call for every merchant endpoint and every reply field of the OpenAPI document', () => {
    const openapi = JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<
        string,
        { post: { requestBody?: { content: { 'application/json': { schema: Schema } } } } }
      >;
      components: { schemas: Record<string, Schema> };
    };
    const surface = JSON.parse(java(['com.agentpay.merchant.Conformance', 'surface'])) as {
      endpoints: string[];
      records: Record<string, string[]>;
      params: Record<string, string[]>;
    };
    expect([...surface.endpoints].sort()).toEqual(
      Object.keys(openapi.paths)
        .filter((p) => p.startsWith('/gateway/'))
        .sort(),
    );
    for (const [name, fields] of Object.entries(surface.records)) {
      const schema = openapi.components.schemas[name];
      expect(schema, `schema ${name}`).toBeDefined();
      expect([...fields].sort(), name).toEqual(Object.keys(schema!.properties ?? {}).sort());
    }
    const common = Object.keys(openapi.components.schemas['CommonParams']!.properties ?? {});
    const paramsOf: Record<string, string> = {
      PayParams: '/gateway/pay',
      CloseParams: '/gateway/close',
      InquiryParams: '/gateway/inqury',
      TransferParams: '/gateway/transfer',
      BalanceRecordsParams: '/gateway/query/balanceRecords',
      RefundParams: '/gateway/refund',
    };
    for (const [name, path] of Object.entries(paramsOf)) {
      const schema = openapi.paths[path]!.post.requestBody!.content['application/json'].schema;
      const documented = [...new Set(propertiesOf(schema, openapi.components.schemas))].filter(
        (p) => !common.includes(p),
      );
      expect([...surface.params[name]!].sort(), name).toEqual(documented.sort());
    }
  });

  it('ships a pom.xml for Java 17 with no dependencies', () => {
    const pom = readFileSync(`${SDK_DIR}pom.xml`, 'utf8');
    expect(pom).toContain('<artifactId>agentpay-merchant-sdk</artifactId>');
    expect(pom).toContain('<maven.compiler.release>17</maven.compiler.release>');
    expect(pom).toContain('<dependencies/>');
  });
});

interface Schema {
  properties?: Record<string, unknown>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
}

function propertiesOf(schema: Schema, schemas: Record<string, Schema>): string[] {
  const own = Object.keys(schema.properties ?? {});
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  const ref = schema.$ref ? [schemas[schema.$ref.split('/').pop()!]!] : [];
  return [...own, ...[...parts, ...ref].flatMap((s) => propertiesOf(s, schemas))];
}
