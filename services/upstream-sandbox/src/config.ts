import { createPublicKey } from 'node:crypto';
import { baseEnv, defaultDatabaseUrl, host, millis, port, retentionEnv, z } from '@agentpay/config';
import { institutionByClabePrefix } from '@agentpay/spei';

const DEV_API_KEY = 'sandbox-dev-key';
const DEV_NOTICE_SECRET = 'sandbox-notice-secret';

/** The sandbox upstream channel's environment. */
export const sandboxEnv = z
  .object({
    ...baseEnv,
    /**
     * Interface the HTTP server listens on; default 127.0.0.1, this machine only. The images and the
     * Kubernetes manifests set 0.0.0.0, so that other hosts reach it.
     */
    HOST: host(),
    /** HTTP port; default 8090. */
    SANDBOX_PORT: port(8090),
    /** The sandbox's own database (virtual accounts, deposits, payouts, notices); created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_sandbox')),
    /** Key the platform sends as `x-api-key` on the channel API; default `sandbox-dev-key` outside production. */
    SANDBOX_API_KEY: z.string().optional(),
    /** HMAC-SHA256 key signing notices (`x-sandbox-signature`); default `sandbox-notice-secret` outside production. */
    SANDBOX_NOTICE_SECRET: z.string().optional(),
    /** Delay before a payout settles, and again before a RETURN payout comes back, ms; default 300. */
    SANDBOX_SETTLE_DELAY_MS: millis(300),
    /** How often the scheduler looks for due settlements and notices, ms; default 200. */
    SANDBOX_POLL_MS: millis(200),
    /** Delivery attempts of one notice before the sandbox gives up; default 6. */
    SANDBOX_NOTICE_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(6),
    /** Wait before the first retry of a notice, doubled on each further one, ms; default 1000. */
    SANDBOX_NOTICE_BACKOFF_MS: millis(1_000),
    /** Timeout of one notice delivery, ms; default 5000. */
    SANDBOX_NOTICE_TIMEOUT_MS: millis(5_000),
    /** 3-digit CLABE bank prefix of issued accounts (an institution of the SPEI list); default 646 (STP). */
    SANDBOX_BANK_PREFIX: z
      .string()
      .regex(/^\d{3}$/)
      .refine((p) => institutionByClabePrefix(p) !== undefined, 'not a known SPEI institution prefix')
      .default('646'),
    /** 3-digit plaza of issued CLABEs; default 180. Give two sandboxes different plazas to keep CLABEs apart. */
    SANDBOX_PLAZA: z
      .string()
      .regex(/^\d{3}$/)
      .default('180'),
    /** Statement lines read from the database per query while a statement streams; default 500. */
    SANDBOX_STATEMENT_PAGE_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
    /**
     * Days the sandbox keeps its movements (accounts, deposits, payouts, delivered notices); default 90,
     * longer than the platform reconciles back. 0 keeps them forever (docs/deploy.md "Retention").
     */
    SANDBOX_RETENTION_DAYS: z.coerce.number().min(0).default(90),
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job. */
    ...retentionEnv,
    /** Beneficiary name shown for issued accounts; default `AGENTPAY SANDBOX`. */
    SANDBOX_BENEFICIARY_NAME: z.string().min(1).default('AGENTPAY SANDBOX'),
    /** The STP face's default company (`empresa`), written to its database at every start; default `AGENTPAY`. */
    STP_EMULATOR_EMPRESA: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/)
      .default('AGENTPAY'),
    /** PEM public key the default company's `firma` is checked with; default: the public half of STP's demo key. */
    STP_EMULATOR_PUBLIC_KEY: z
      .string()
      .refine((pem) => {
        try {
          createPublicKey(pem);
          return true;
        } catch {
          return false;
        }
      }, 'not a PEM key node:crypto reads')
      .optional(),
    /** The default company's 10-digit CLABE prefix (646180 + its 4-digit code); default `6461805555`. */
    STP_EMULATOR_CLABE_PREFIX: z
      .string()
      .regex(/^646\d{7}$/, '10 digits starting 646')
      .default('6461805555'),
    /** Where the default company's webhooks go (`/abono`, `/cambio-estado` appended); default `http://127.0.0.1:8091/notices/stp-default`. */
    STP_EMULATOR_WEBHOOK_BASE: z.url().default('http://127.0.0.1:8091/notices/stp-default'),
    /** Orders per page of the STP face's conciliacion; default 100. */
    STP_EMULATOR_PAGE_SIZE: z.coerce.number().int().min(1).max(10_000).default(100),
  })
  .transform((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    // Production never runs on a key everybody knows.
    if (production && !env.SANDBOX_API_KEY)
      ctx.addIssue({ code: 'custom', path: ['SANDBOX_API_KEY'], message: 'required in production' });
    if (production && !env.SANDBOX_NOTICE_SECRET)
      ctx.addIssue({ code: 'custom', path: ['SANDBOX_NOTICE_SECRET'], message: 'required in production' });
    return {
      ...env,
      production,
      SANDBOX_API_KEY: env.SANDBOX_API_KEY || DEV_API_KEY,
      SANDBOX_NOTICE_SECRET: env.SANDBOX_NOTICE_SECRET || DEV_NOTICE_SECRET,
    };
  });

export type SandboxConfig = z.output<typeof sandboxEnv>;
