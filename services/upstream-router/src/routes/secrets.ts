import { STP_DEMO_PASSPHRASE, STP_DEMO_PRIVATE_KEY_PEM } from '@agentpay/spei';

/** Resolves a route's secret reference (an environment variable name) to its value, or '' when unset. */
export type SecretResolver = (ref: string) => string;

// Development defaults for the seeded sandbox route, so a fresh stack works with no set-up;
// production gets no defaults.
const DEV_DEFAULTS: Readonly<Record<string, string>> = {
  SANDBOX_API_KEY: 'sandbox-dev-key',
  SANDBOX_NOTICE_SECRET: 'sandbox-notice-secret',
  // The seeded `stp` route signs with STP's public demo key, which the STP emulator knows.
  CHANNEL_STP_PRIVATE_KEY: STP_DEMO_PRIVATE_KEY_PEM,
  CHANNEL_STP_PASSPHRASE: STP_DEMO_PASSPHRASE,
};

/**
 * Routes may only name variables of these families: a route (editable by operators) must not be able
 * to send, say, DATABASE_URL to a channel URL of its choosing.
 */
export const SECRET_REF = /^(SANDBOX|UPSTREAM|CHANNEL)_[A-Z0-9_]+$/;

export function createSecretResolver(env: NodeJS.ProcessEnv, production: boolean): SecretResolver {
  return (ref) => {
    if (!SECRET_REF.test(ref)) return '';
    const value = env[ref];
    if (value) return value;
    return production ? '' : (DEV_DEFAULTS[ref] ?? '');
  };
}
