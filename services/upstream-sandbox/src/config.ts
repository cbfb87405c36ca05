import { baseEnv, defaultDatabaseUrl, millis, port, z } from '@agentpay/config';

/** The sandbox upstream channel's environment. */
export const sandboxEnv = z
  .object({
    ...baseEnv,
    /** Interface the HTTP server binds to; default 0.0.0.0. */
    HOST: z.string().default('0.0.0.0'),
    /** HTTP port; default 8090. */
    SANDBOX_PORT: port(8090),
    /** The sandbox's own database (virtual accounts, deposits, payouts); created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_sandbox')),
    /** Delay before a payout settles, ms; default 300. */
    SANDBOX_SETTLE_DELAY_MS: millis(300),
  })
  .transform((env) => ({ ...env, production: env.NODE_ENV === 'production' }));

export type SandboxConfig = z.output<typeof sandboxEnv>;
