import {
  baseEnv,
  DEFAULT_NATS_URL,
  defaultDatabaseUrl,
  eventsEnv,
  flag,
  millis,
  port,
  z,
} from '@agentpay/config';

/** The notifier's environment. */
export const notifierEnv = z
  .object({
    ...baseEnv,
    /** Interface the HTTP server binds to; default 0.0.0.0. */
    HOST: z.string().default('0.0.0.0'),
    /** HTTP port for /healthz and the callback admin API; default 8082. */
    NOTIFIER_PORT: port(8082),
    /** The notifier's own database (delivery schedule and attempts); created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_notifier')),
    /** NATS with JetStream; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /** Platform private key (PEM), to sign callbacks. Takes precedence over the file. */
    PLATFORM_PRIVATE_KEY: z.string().optional(),
    /** File holding the platform private key; outside production it is generated there if missing. */
    PLATFORM_PRIVATE_KEY_FILE: z.string().default('.agentpay/platform-key.pem'),
    /** Timeout of one whole callback exchange, ms; default 15000. */
    NOTIFY_TIMEOUT_MS: millis(15_000),
    /** Waits before each retry (its length is the number of retries); default the contract's 16. */
    NOTIFY_RETRY_SCHEDULE: z.string().default('15s,15s,30s,1m,3m,10m,20m,30m,30m,30m,1h,3h,3h,3h,6h,6h'),
    /** Allow callbacks to loopback/private addresses (development and tests); default false. */
    NOTIFY_ALLOW_PRIVATE: flag(false),
    /** Bearer token of the callback admin API; outside production defaults to dev-admin-token. */
    ADMIN_TOKEN: z.string().optional(),
  })
  .transform((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    if (production && !env.ADMIN_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_TOKEN'], message: 'required in production' });
    }
    return { ...env, production, ADMIN_TOKEN: env.ADMIN_TOKEN ?? 'dev-admin-token' };
  });

export type NotifierConfig = z.output<typeof notifierEnv>;
