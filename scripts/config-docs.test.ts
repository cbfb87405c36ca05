import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayEnv } from '../services/gateway/src/config.js';
import { ledgerEnv } from '../services/ledger/src/config.js';
import {
  BEGIN_MARKER,
  configRows,
  configuredServices,
  END_MARKER,
  formatDefault,
  readSchemaSource,
  renderReadme,
  replaceTable,
  withoutStatedDefault,
} from './config-docs.js';

const scratch = mkdtempSync(join(tmpdir(), 'config-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('service README configuration tables', () => {
  it.each(configuredServices())(
    '%s: the table is what `npm run docs:config` writes from src/config.ts',
    async (service) => {
      const { current, expected } = await renderReadme(service);
      // Line by line, so a failure shows the rows that differ.
      expect(current.split('\n'), `services/${service}/README.md is stale: run npm run docs:config`).toEqual(
        expected.split('\n'),
      );
    },
  );

  it('covers every service with a config schema', () => {
    expect(configuredServices()).toEqual([
      'compliance',
      'gateway',
      'ledger',
      'notifier',
      'payments',
      'transfers',
      'upstream-router',
      'upstream-sandbox',
    ]);
  });

  it("lists every key of the schema, the shared ones included, with the schema's own default", async () => {
    const gateway = await configRows('gateway');
    expect(gateway.map((r) => r.name).sort()).toEqual(Object.keys(gatewayEnv.in.shape).sort());
    const byName = new Map(gateway.map((r) => [r.name, r]));
    expect(byName.get('GRPC_TIMEOUT_MS')).toMatchObject({ default: '`20000`' });
    expect(byName.get('GRPC_TIMEOUT_MS')!.doc).toMatch(/^Deadline for calls to internal gRPC services, ms\./);
    // From baseEnv and retentionEnv in packages/config, with the comments written there.
    expect(byName.get('LOG_LEVEL')).toEqual({ name: 'LOG_LEVEL', default: '`info`', doc: 'pino log level.' });
    expect(byName.get('RETENTION_BATCH')?.default).toBe('`1000`');
    expect(byName.get('TRUST_PROXY')?.default).toBe('`false`');
    expect(byName.get('ADMIN_TOKEN')?.default).toBe('unset');

    const ledger = await configRows('ledger');
    expect(ledger.map((r) => r.name).sort()).toEqual(Object.keys(ledgerEnv.in.shape).sort());
    expect(ledger.find((r) => r.name === 'METRICS_PORT')?.default).toBe('`9103`');
    expect(ledger.find((r) => r.name === 'STATEMENT_RETENTION_DAYS')?.default).toBe('`400`');
  });
});

describe('reading a schema source', () => {
  it('follows spreads of local objects, keeps source order, and reports a key without a comment', () => {
    const file = join(scratch, 'config.ts');
    writeFileSync(
      file,
      `import { z } from 'zod';
const shared = {
  /** Shared one; default 1. */
  SHARED: z.coerce.number().default(1),
};
export const env = z
  .object({
    /**
     * First,
     * on two lines.
     */
    FIRST: z.string(),
    ...shared,
    NO_COMMENT: z.string(),
  })
  .transform((e) => e);
`,
    );
    expect(readSchemaSource(file)).toEqual({
      exportName: 'env',
      keys: [
        { name: 'FIRST', doc: 'First, on two lines.' },
        { name: 'SHARED', doc: 'Shared one; default 1.' },
        { name: 'NO_COMMENT', doc: '' },
      ],
    });
  });
});

describe('writing the table', () => {
  it('replaces only the text between the markers, and refuses a README without them', () => {
    const readme = `# x\n\nbefore\n\n${BEGIN_MARKER}\n\nold table\n\n${END_MARKER}\n\nafter\n`;
    expect(replaceTable(readme, '| new |')).toBe(
      `# x\n\nbefore\n\n${BEGIN_MARKER}\n\n| new |\n\n${END_MARKER}\n\nafter\n`,
    );
    expect(() => replaceTable('# x\n\nno markers\n', '| new |')).toThrow(/config-table:begin/);
  });

  it('drops a clause stating the default only when it states the Default column exactly', () => {
    expect(withoutStatedDefault('Merchant API port; default 8080.', 8080)).toBe('Merchant API port.');
    expect(withoutStatedDefault('Kept; default 60; 0 keeps them forever.', 60)).toBe(
      'Kept; 0 keeps them forever.',
    );
    expect(withoutStatedDefault('Runs prepared (default true); `false` elsewhere.', true)).toBe(
      'Runs prepared; `false` elsewhere.',
    );
    expect(withoutStatedDefault('Rows per batch (one DELETE). Default 1000.', 1000)).toBe(
      'Rows per batch (one DELETE).',
    );
    // Other wordings, other values, and a value that is only the start of the stated one stay as written.
    expect(withoutStatedDefault('Pause, ms; 0 turns it off. Default 60 s.', 60_000)).toBe(
      'Pause, ms; 0 turns it off. Default 60 s.',
    );
    expect(withoutStatedDefault('Wait, ms; default 50000.', 5000)).toBe('Wait, ms; default 50000.');
    expect(withoutStatedDefault('Days; default 1825 (five years).', 1825)).toBe(
      'Days; default 1825 (five years).',
    );
  });
});

describe('formatting a default', () => {
  it('reads as the variable would be written', () => {
    expect(formatDefault(8080)).toBe('`8080`');
    expect(formatDefault(false)).toBe('`false`');
    expect(formatDefault(undefined)).toBe('unset');
    expect(formatDefault('')).toBe('empty');
    expect(formatDefault([])).toBe('empty');
    expect(formatDefault(['10.0.0.0/8', '192.168.0.1'])).toBe('`10.0.0.0/8,192.168.0.1`');
  });
});
