import { describe, expect, it } from 'vitest';
import { gatewayEnv } from './config.js';

/** The variables production requires anyway, so each case fails on PUBLIC_BASE_URL alone. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PEOPLE_SECRET_KEY: 'p'.repeat(32),
  NOTIFIER_ADMIN_TOKEN: 'notifier-token',
  CASHIER_SECRET: 'c'.repeat(32),
};

describe('PUBLIC_BASE_URL', () => {
  it('refuses the .invalid placeholder of the manifests in production', () => {
    const parsed = gatewayEnv.safeParse({ ...PRODUCTION, PUBLIC_BASE_URL: 'https://api.agentpay.invalid' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['PUBLIC_BASE_URL']);
  });

  it('accepts a real origin in production and the placeholder outside it', () => {
    expect(gatewayEnv.safeParse({ ...PRODUCTION, PUBLIC_BASE_URL: 'https://api.example.com' }).success).toBe(
      true,
    );
    expect(gatewayEnv.safeParse({ PUBLIC_BASE_URL: 'https://api.agentpay.invalid' }).success).toBe(true);
  });
});
