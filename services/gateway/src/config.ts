import { isIP } from 'node:net';
import {
  baseEnv,
  DEFAULT_NATS_URL,
  defaultDatabaseUrl,
  flag,
  host,
  millis,
  port,
  retentionEnv,
  z,
} from '@agentpay/config';
import { parseAmount } from '@agentpay/wire';

/** A platform default limit: pesos with at most two decimals (kept as centavos), or `none` for no limit. */
function limitPesos(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      if (text.trim().toLowerCase() === 'none') return null;
      const parsed = parseAmount(Number(text));
      if (!/^\d+(\.\d{1,2})?$/.test(text.trim()) || !parsed.ok) {
        ctx.addIssue({ code: 'custom', message: `pesos such as 50000.00, or none: ${text}` });
        return z.NEVER;
      }
      return parsed.centavos;
    });
}

/** A platform default count limit: a whole number, or `none`. */
function limitCount(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      if (text.trim().toLowerCase() === 'none') return null;
      if (!/^\d+$/.test(text.trim())) {
        ctx.addIssue({ code: 'custom', message: `a whole number, or none: ${text}` });
        return z.NEVER;
      }
      return Number(text);
    });
}

/** The gateway's environment. Parsed once in main.ts; tests build it from a plain object. */
export const gatewayEnv = z
  .object({
    ...baseEnv,
    /**
     * Interface the HTTP servers (merchant and admin API) listen on; default 127.0.0.1, this machine only.
     * The images and the Kubernetes manifests set 0.0.0.0, so that other hosts reach them.
     */
    HOST: host(),
    /** Merchant API port; default 8080. */
    GATEWAY_PORT: port(8080),
    /** Admin API port (operators only; never expose publicly); default 8081. */
    ADMIN_PORT: port(8081),
    /** The gateway's own database (merchants, keys, nonces); created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_gateway')),
    /** NATS server; default nats://127.0.0.1:4222. Read for /healthz. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    /**
     * gRPC target of the payments service; default 127.0.0.1:50051. Calls are spread round-robin over every address
     * it resolves to: `dns:///name:port` of a headless Service, or `ipv4:host:port,host:port` (docs/deploy.md).
     */
    PAYMENTS_ADDR: z.string().default('127.0.0.1:50051'),
    /**
     * gRPC target of the transfers service; default 127.0.0.1:50052. Calls are spread round-robin over every address
     * it resolves to: `dns:///name:port` of a headless Service, or `ipv4:host:port,host:port` (docs/deploy.md).
     */
    TRANSFERS_ADDR: z.string().default('127.0.0.1:50052'),
    /**
     * gRPC target of the upstream router; default 127.0.0.1:50053. Calls are spread round-robin over every address
     * it resolves to: `dns:///name:port` of a headless Service, or `ipv4:host:port,host:port` (docs/deploy.md).
     */
    ROUTER_ADDR: z.string().default('127.0.0.1:50053'),
    /**
     * gRPC target of the ledger service (balances, statements, adjustments, settlement runs); default
     * 127.0.0.1:50054. Spread round-robin like the others (docs/deploy.md).
     */
    LEDGER_ADDR: z.string().default('127.0.0.1:50054'),
    /**
     * gRPC target of the compliance service (lists, cases, rules, reports: docs/compliance.md); default
     * 127.0.0.1:50055. Spread round-robin like the others.
     */
    COMPLIANCE_ADDR: z.string().default('127.0.0.1:50055'),
    /** Base URL of the notifier's HTTP port (health, callback admin); default http://127.0.0.1:8082. */
    NOTIFIER_URL: z.string().default('http://127.0.0.1:8082'),
    /** Platform private key (PEM). Takes precedence over PLATFORM_PRIVATE_KEY_FILE. */
    PLATFORM_PRIVATE_KEY: z.string().optional(),
    /** File holding the platform private key; outside production it is generated there if missing. */
    PLATFORM_PRIVATE_KEY_FILE: z.string().default('.agentpay/platform-key.pem'),
    /**
     * Bearer token of the admin API acting as `system:dev` with every role; outside production defaults to
     * dev-admin-token. In production it only creates the first owner while there is none (people sign in), and
     * may be left unset (no bootstrap possible) once they are.
     */
    ADMIN_TOKEN: z.string().optional(),
    /**
     * Key (32+ characters) that encrypts people's TOTP secrets at rest (AES-256-GCM); required in production;
     * elsewhere derived from the platform key. Changing it makes every enrolled authenticator unreadable.
     */
    PEOPLE_SECRET_KEY: z.string().min(32).optional(),
    /** The internal token the notifier's callback admin API accepts from the gateway; outside production dev-notifier-admin-token. */
    NOTIFIER_ADMIN_TOKEN: z.string().min(1).optional(),
    /** Address of the admin port as operators reach it, for invitation links; default http://127.0.0.1:<ADMIN_PORT>. */
    CONSOLE_BASE_URL: z
      .string()
      .regex(/^https?:\/\/[^/?#]+$/, 'an http(s) origin without a path or trailing slash')
      .optional(),
    /** Accepted distance between reqTime and the platform clock, seconds; default 300. */
    REQ_TIME_WINDOW_S: z.coerce.number().int().min(1).default(300),
    /** How long a nonceStr stays used, seconds; default 86400 (24 h). */
    NONCE_TTL_S: z.coerce.number().int().min(1).default(86_400),
    /** Largest accepted request body, bytes; default 65536. */
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(65_536),
    /** How long a merchant record is cached per replica, ms; default 5000. Admin changes on this replica apply at once. */
    MERCHANT_CACHE_MS: millis(5_000),
    /** Requests per second per merchant across all replicas (42900 beyond); 0 disables; default 200. A merchant's own setting overrides it. */
    RATE_LIMIT_PER_S: z.coerce.number().int().min(0).default(200),
    /**
     * Deadline for calls to internal gRPC services, ms; default 20000. Deadlines shrink downstream
     * (payments and transfers give the router 15 s, the router gives a channel 10 s), so a slow channel
     * surfaces as its own error rather than as a gateway timeout over an order that was in fact created.
     */
    GRPC_TIMEOUT_MS: millis(20_000),
    /** Deadline of an on-demand reconciliation run (POST /admin/reconciliations): it reads a day's statement. */
    RECON_RUN_TIMEOUT_MS: millis(600_000),
    /** OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** Trust X-Forwarded-For from any proxy in front of the gateway; default false. Prefer TRUSTED_PROXIES. */
    TRUST_PROXY: flag(false),
    /**
     * Comma-separated addresses or CIDRs of the proxies in front of the gateway (e.g. 10.0.0.0/8); a
     * request's address (allowedIps, rate limits, audit) is read from X-Forwarded-For only when it comes
     * through one of them. Default empty: the TCP peer (or TRUST_PROXY's blanket trust).
     */
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((text, ctx) => {
        const list = text
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '');
        for (const item of list) {
          const [address = '', bits, extra] = item.split('/');
          const version = isIP(address);
          const okBits =
            bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32));
          if (version === 0 || extra !== undefined || !okBits) {
            ctx.addIssue({ code: 'custom', message: `an address or a CIDR: ${item}` });
            return z.NEVER;
          }
        }
        return list;
      }),
    /**
     * Platform default payout limit per transfer, pesos (or `none`), for merchants without their own
     * (CONTRACT section 19); default 1000000.00. Limits count Mexico City days and months.
     */
    LIMIT_PAYOUT_PER_TRANSFER: limitPesos('1000000.00'),
    /** Platform default of what a merchant's payouts may add up to in one day, pesos or `none`; default 5000000.00. */
    LIMIT_PAYOUT_DAILY: limitPesos('5000000.00'),
    /** Platform default of how many payouts a merchant may make in one day, or `none`; default 10000. */
    LIMIT_PAYOUT_DAILY_COUNT: limitCount('10000'),
    /** Platform default of what a merchant's payouts may add up to in one month, pesos or `none`; default 50000000.00. */
    LIMIT_PAYOUT_MONTHLY: limitPesos('50000000.00'),
    /** Platform default largest pay order, pesos or `none`; default 5000000.00. */
    LIMIT_PAYIN_PER_ORDER: limitPesos('5000000.00'),
    /**
     * Public address of the merchant port, for payers' cashier links; default http://127.0.0.1:<GATEWAY_PORT>.
     * Production refuses a host under `.invalid` (the manifests' placeholder): payers could never open the link.
     */
    PUBLIC_BASE_URL: z
      .string()
      .regex(/^https?:\/\/[^/?#]+$/, 'an http(s) origin without a path or trailing slash')
      .optional(),
    /** Secret of the cashier links' tokens (32+ characters); outside production derived from the platform key. */
    CASHIER_SECRET: z.string().min(32).optional(),
    /** Cashier page and status requests per minute per client address (per replica); default 120. */
    CASHIER_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(120),
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job (docs/deploy.md "Retention"). */
    ...retentionEnv,
    /** Seconds a per-second rate window is kept; default 60; 0 keeps them forever. Only the current one is read. */
    RATE_WINDOW_RETENTION_S: z.coerce.number().int().min(0).default(60),
    /**
     * Days a cashier link is kept after its order expired at the latest (30 days after the link was written,
     * the longest `expiredTime` allows); default 30; 0 keeps them forever. Past it the page answers the 404
     * of an unknown order.
     */
    CASHIER_LINK_RETENTION_DAYS: z.coerce.number().min(0).default(30),
    /**
     * Pause between rounds of the four-eyes sweep (pending requests past 24 h expire; approved requests whose
     * execution was cut short are executed), ms; default 30000; one round also runs at start.
     */
    APPROVALS_SWEEP_MS: millis(30_000),
    /**
     * How long an approved request's execution may run before the sweep assumes it was cut short (a crash, a
     * service down) and executes it again, ms; default 60000. Executions are safe to repeat.
     */
    APPROVALS_LEASE_MS: millis(60_000),
    /**
     * Test only, refused in production: `after-approve` kills the process right after an approval commits
     * and before its execution, as a crash there would (the restart test of four eyes); default none.
     */
    APPROVALS_CRASH_POINT: z.enum(['none', 'after-approve']).default('none'),
  })
  .transform((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    for (const name of ['PEOPLE_SECRET_KEY', 'NOTIFIER_ADMIN_TOKEN'] as const) {
      if (production && !env[name])
        ctx.addIssue({ code: 'custom', path: [name], message: 'required in production' });
    }
    if (production && env.APPROVALS_CRASH_POINT !== 'none') {
      ctx.addIssue({ code: 'custom', path: ['APPROVALS_CRASH_POINT'], message: 'not allowed in production' });
    }
    if (production && !env.CASHIER_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['CASHIER_SECRET'], message: 'required in production' });
    }
    if (production && env.PUBLIC_BASE_URL && isPlaceholderOrigin(env.PUBLIC_BASE_URL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_BASE_URL'],
        message: 'the .invalid placeholder: set the public origin merchants and payers reach',
      });
    }
    return {
      ...env,
      production,
      // Production: only to bring the first owner in, and best removed once they are (docs/deploy.md).
      ADMIN_TOKEN: production ? env.ADMIN_TOKEN : (env.ADMIN_TOKEN ?? 'dev-admin-token'),
      PUBLIC_BASE_URL: env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${env.GATEWAY_PORT}`,
      CONSOLE_BASE_URL: env.CONSOLE_BASE_URL ?? `http://127.0.0.1:${env.ADMIN_PORT}`,
      NOTIFIER_ADMIN_TOKEN: env.NOTIFIER_ADMIN_TOKEN ?? 'dev-notifier-admin-token',
      /** The limits of a merchant that set none of its own (CONTRACT section 19), centavos. */
      defaultLimits: {
        payout: {
          perTransfer: env.LIMIT_PAYOUT_PER_TRANSFER,
          daily: env.LIMIT_PAYOUT_DAILY,
          dailyCount: env.LIMIT_PAYOUT_DAILY_COUNT,
          monthly: env.LIMIT_PAYOUT_MONTHLY,
        },
        payin: { perOrder: env.LIMIT_PAYIN_PER_ORDER },
      },
    };
  });

/** An origin whose host is under `.invalid` (RFC 2606: never resolves), as the manifests' placeholder is. */
function isPlaceholderOrigin(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === 'invalid' || host.endsWith('.invalid');
}

export type GatewayConfig = z.output<typeof gatewayEnv>;
