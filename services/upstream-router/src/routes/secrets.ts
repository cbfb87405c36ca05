/** Resolves a route's secret reference (an environment variable name) to its value, or '' when unset. */
export type SecretResolver = (ref: string) => string;

// Development defaults for the seeded sandbox route, so a fresh stack works with no set-up;
// production gets no defaults.
const DEV_DEFAULTS: Readonly<Record<string, string>> = {
  SANDBOX_API_KEY: 'sandbox-dev-key',
  SANDBOX_NOTICE_SECRET: 'sandbox-notice-secret',
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
