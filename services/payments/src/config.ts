import { baseEnv, DEFAULT_NATS_URL, defaultDatabaseUrl, eventsEnv, millis, port, z } from '@agentpay/config';

/** The payments service's environment. */
export const paymentsEnv = z
  .object({
    ...baseEnv,
    /** Interface the gRPC server binds to; default 0.0.0.0. */
    HOST: z.string().default('0.0.0.0'),
    /** gRPC port; default 50051. */
    GRPC_PORT: port(50051),
    /** The service's own database; created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_payments')),
    /** NATS with JetStream, for the outbox relay; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /** gRPC address of the upstream router; default 127.0.0.1:50053. */
    ROUTER_ADDR: z.string().default('127.0.0.1:50053'),
    /** Deadline of a call to the upstream router, ms; default 15000. */
    ROUTER_TIMEOUT_MS: millis(15_000),
  })
  .transform((env) => ({ ...env, production: env.NODE_ENV === 'production' }));

export type PaymentsConfig = z.output<typeof paymentsEnv>;
