import { describe, expect, it } from 'vitest';
import { createAdapters } from '../adapters/registry.js';
import type { NewRoute } from './route.repository.js';
import { checkRoute, parseConfig, RouteAdminError } from './route-spec.js';

const adapters = createAdapters({ timeoutMs: 1_000 });
/** A route names secrets the tests never set: each resolves to ''. */
const noSecrets = () => '';

const route = (over: Partial<NewRoute> = {}): NewRoute => ({
  id: 'second',
  name: 'Second',
  adapter: 'sandbox',
  config: {
    baseUrl: 'http://127.0.0.1:9000',
    noticeUrl: 'http://127.0.0.1:8091/notices/second',
    noticeSecretRef: 'SANDBOX_NOTICE_SECRET',
  },
  credentialsRef: 'SANDBOX_API_KEY',
  enabled: true,
  methods: ['mex_virtual_account'],
  payeeTypes: ['user_id'],
  priority: 100,
  weight: 100,
  merchantScope: 'all',
  codeMap: {},
  ...over,
});

function problem(r: NewRoute): string {
  try {
    checkRoute(r, adapters, noSecrets);
  } catch (err) {
    if (err instanceof RouteAdminError && err.kind === 'invalid') return err.message;
    throw err;
  }
  throw new Error('accepted');
}

describe('checkRoute', () => {
  it('accepts a usable route, trimming the name and dropping repeated codes', () => {
    const checked = checkRoute(
      route({ name: '  Second  ', methods: ['mex_virtual_account', 'mex_virtual_account'] }),
      adapters,
      noSecrets,
    );
    expect(checked).toMatchObject({ name: 'Second', methods: ['mex_virtual_account'] });
  });

  it('maps only public Banxico codes, whatever the channel calls them', () => {
    expect(checkRoute(route({ codeMap: { '40012': '012' } }), adapters, noSecrets).codeMap).toEqual({
      '40012': '012',
    });
    expect(problem(route({ codeMap: { '012': '012' } }))).toMatch(/^codeMap\.012:/);
    expect(problem(route({ codeMap: { '40012': '' } }))).toMatch(/^codeMap\.40012:/);
  });

  it('only lets a route name secrets of the channel families', () => {
    expect(problem(route({ credentialsRef: 'DATABASE_URL' }))).toMatch(/^credentialsRef:/);
    expect(
      problem(route({ config: { ...route().config, noticeSecretRef: 'PLATFORM_PRIVATE_KEY' } })),
    ).toMatch(/^config\.noticeSecretRef:/);
  });

  it("refuses what the adapter cannot work with, by the setting's name", () => {
    expect(problem(route({ config: { noticeSecretRef: 'SANDBOX_NOTICE_SECRET' } }))).toMatch(
      /^config\.baseUrl:/,
    );
    expect(problem(route({ config: { ...route().config, timeoutMs: 0 } }))).toMatch(/^config\.timeoutMs:/);
    expect(problem(route({ adapter: 'carrier-pigeon' }))).toMatch(
      /^adapter: unknown adapter "carrier-pigeon"/,
    );
  });

  it('refuses a route that serves nothing, or an unknown scope', () => {
    expect(problem(route({ methods: [], payeeTypes: [] }))).toMatch(/^methods:/);
    expect(problem(route({ merchantScope: 'some' as 'all' }))).toMatch(/^merchantScope:/);
  });
});

describe('parseConfig', () => {
  it('takes a JSON object and nothing else', () => {
    expect(parseConfig('{"a":1}')).toEqual({ a: 1 });
    expect(parseConfig('')).toEqual({});
    expect(() => parseConfig('[1]')).toThrow(/config: must be a JSON object/);
    expect(() => parseConfig('{')).toThrow(/config: not JSON/);
  });
});
