import type { Logger } from '@agentpay/logger';
import {
  carrierOf,
  contextFrom,
  type Registry,
  requestMetrics,
  SpanKind,
  SpanStatusCode,
  startSpan,
  withContext,
} from '@agentpay/telemetry';
import { AppError, type CodeName, Codes, isAppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation, service as healthService } from 'grpc-health-check';

/** Trailing-metadata key that carries the symbolic error code of docs/merchant-api.md "Codes" across gRPC. */
export const APP_CODE_METADATA = 'agentpay-code';

/** The gRPC status an application error travels with; the precise code rides in metadata. */
export function grpcStatusFor(name: CodeName): grpc.status {
  switch (name) {
    case 'SUCCESS':
      return grpc.status.OK;
    case 'INVALID_PARAMETER':
    case 'INVALID_BODY':
    case 'UNSUPPORTED_CONTENT_TYPE':
    case 'INVALID_PAYEE_ACCOUNT':
      return grpc.status.INVALID_ARGUMENT;
    case 'MERCHANT_NOT_FOUND':
    case 'APP_NOT_FOUND':
    case 'ORDER_NOT_FOUND':
    case 'TRANSFER_NOT_FOUND':
    case 'REFUND_NOT_FOUND':
      return grpc.status.NOT_FOUND;
    case 'MERCHANT_DISABLED':
    case 'SIGNATURE_FAILED':
    case 'REQ_TIME_OUT_OF_WINDOW':
    case 'NONCE_USED':
      return grpc.status.PERMISSION_DENIED;
    case 'DUPLICATE_ORDER':
    case 'DUPLICATE_TRANSFER':
    case 'DUPLICATE_INQUIRY':
    case 'DUPLICATE_REFUND':
    case 'DUPLICATE_BATCH':
      return grpc.status.ALREADY_EXISTS;
    case 'PAY_METHOD_NOT_AVAILABLE':
    case 'PAYEE_TYPE_NOT_AVAILABLE':
    case 'PAYEE_CODE_NOT_AVAILABLE':
    case 'ORDER_STATUS_FORBIDS':
    case 'ORDER_ALREADY_PAID':
    case 'INSUFFICIENT_BALANCE':
    case 'PAYIN_LIMIT_EXCEEDED':
    case 'PAYOUT_LIMIT_EXCEEDED':
    case 'PAYEE_NOT_REGISTERED':
    case 'REFUND_NOT_POSSIBLE':
      return grpc.status.FAILED_PRECONDITION;
    case 'ADDRESS_NOT_ALLOWED':
      return grpc.status.PERMISSION_DENIED;
    case 'TOO_MANY_REQUESTS':
      return grpc.status.RESOURCE_EXHAUSTED;
    case 'NO_UPSTREAM_ROUTE':
    case 'UPSTREAM_UNAVAILABLE':
    case 'SERVICE_UNAVAILABLE':
      return grpc.status.UNAVAILABLE;
    case 'INTERNAL_ERROR':
      return grpc.status.INTERNAL;
    default: {
      const unreachable: never = name;
      return unreachable;
    }
  }
}

const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '55000']);
const UNAVAILABLE_SYSCALLS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/**
 * True when an error means a dependency (Postgres, most often) is down or unreachable rather than that the
 * code is wrong: connection-class SQLSTATEs (08xxx), shutdown and "not accepting connections", refused or
 * reset sockets, a dropped connection, a pool that could not connect in time. docs/merchant-api.md "Codes" answers
 * those with 503 / 50003, and keeps 500 for the unexpected.
 */
export function isDependencyUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SYSCALLS.has(code))
  ) {
    return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message,
    )
  );
}

/** Turns anything thrown by a handler into a gRPC error; unexpected errors are logged and hidden. */
export function toServiceError(err: unknown, logger: Logger): Partial<grpc.ServiceError> {
  const metadata = new grpc.Metadata();
  if (!isAppError(err) && isDependencyUnavailable(err)) {
    logger.warn({ err }, 'a dependency is unavailable');
    metadata.set(APP_CODE_METADATA, 'SERVICE_UNAVAILABLE');
    return { code: grpc.status.UNAVAILABLE, details: Codes.SERVICE_UNAVAILABLE.msg, metadata };
  }
  if (isAppError(err)) {
    metadata.set(APP_CODE_METADATA, err.codeName);
    return { code: grpcStatusFor(err.codeName), details: err.detail ?? err.msg, metadata };
  }
  logger.error({ err }, 'unexpected error in gRPC handler');
  metadata.set(APP_CODE_METADATA, 'INTERNAL_ERROR');
  return { code: grpc.status.INTERNAL, details: Codes.INTERNAL_ERROR.msg, metadata };
}

/** Adapts an async function to a unary gRPC handler, mapping thrown AppErrors to status + metadata. */
export function unary<Req, Res>(
  logger: Logger,
  handler: (request: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handler(call.request, call).then(
      (response) => callback(null, response),
      (err: unknown) => callback(toServiceError(err, logger)),
    );
  };
}

/** Maps a gRPC client error back to the AppError the server meant; transport failures become 50003. */
export function fromServiceError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const serviceError = err as Partial<grpc.ServiceError>;
  const name = serviceError.metadata?.get(APP_CODE_METADATA)[0];
  if (typeof name === 'string' && name in Codes) {
    const codeName = name as CodeName;
    const detail =
      serviceError.details && serviceError.details !== Codes[codeName].msg ? serviceError.details : undefined;
    return new AppError(codeName, detail);
  }
  if (serviceError.code === grpc.status.UNAVAILABLE || serviceError.code === grpc.status.DEADLINE_EXCEEDED) {
    return new AppError('SERVICE_UNAVAILABLE');
  }
  return new AppError('INTERNAL_ERROR');
}

// Generated clients overload each method; TypeScript infers from the last overload, (request, callback),
// so that is the shape callers pass. The call itself uses the (request, metadata, options, callback) one.
type UnaryMethod<Req, Res> = (request: Req, callback: grpc.requestCallback<Res>) => grpc.ClientUnaryCall;
type FullUnaryMethod<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: grpc.requestCallback<Res>,
) => grpc.ClientUnaryCall;

export interface CallOptions {
  /** Deadline for the whole call; default 10 s. */
  timeoutMs?: number;
  metadata?: grpc.Metadata;
}

/** Calls a unary method as a promise; failures reject with an AppError (see fromServiceError). */
export function call<Req, Res>(
  client: grpc.Client,
  method: UnaryMethod<Req, Res>,
  request: Req,
  options: CallOptions = {},
): Promise<Res> {
  return callKeepingStatus(client, method, request, options).catch((err: unknown) => {
    throw fromServiceError(err);
  });
}

/**
 * Calls a unary method as a promise, in a CLIENT span carrying the traceparent; a failure rejects with
 * the grpc ServiceError as it came (status, details, metadata), for callers whose peer answers in gRPC
 * statuses rather than envelope codes (the operators' APIs). `call` is this plus fromServiceError.
 */
export function callKeepingStatus<Req, Res>(
  client: grpc.Client,
  method: UnaryMethod<Req, Res>,
  request: Req,
  options: CallOptions = {},
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + (options.timeoutMs ?? 10_000));
    const full = method as unknown as FullUnaryMethod<Req, Res>;
    const metadata = options.metadata ?? new grpc.Metadata();
    const name = (method as { path?: string }).path ?? method.name;
    const { span, context } = startSpan(`grpc ${name}`, { service: 'client', kind: SpanKind.CLIENT });
    for (const [key, value] of Object.entries(carrierOf(context))) metadata.set(key, value);
    full.call(client, request, metadata, { deadline }, (err, value) => {
      if (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
        span.end();
        reject(err);
      } else {
        span.end();
        resolve(value as Res);
      }
    });
  });
}

/**
 * Channel options for every internal client: keepalive so dead peers are noticed between calls, and
 * no channelz (nothing here serves it; its per-call bookkeeping is measurable on the create-pay path).
 * Calls are spread `round_robin` over every address the target resolves to (each pod behind a headless
 * Service with `dns:///name:port`, or a list such as `ipv4:127.0.0.1:5001,127.0.0.1:5002`): the default,
 * pick_first, would pin one replica per client. A replica that goes away leaves the rotation as soon as
 * its connection breaks; a new one joins when the target is looked up again (see MAX_CONNECTION_AGE_MS).
 */
export const CLIENT_OPTIONS: grpc.ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.enable_channelz': 0,
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  // Lookups follow connection changes; the default spaces them by 30 s, which would hold a new pod back.
  'grpc.dns_min_time_between_resolutions_ms': 5_000,
};

/** How long a server keeps one client connection before asking the client to reconnect (GOAWAY). */
export const MAX_CONNECTION_AGE_MS = 120_000;

/**
 * How long calls in flight on an aged connection may still run before it is closed under them. Unary
 * calls end in moments; a statement stream (StreamStatement) runs as long as a day takes to read, so this is
 * the longest any call may run: the ledger's statement deadline (30 min) and a margin. With 30 s, every
 * statement read longer than 150 s was cut.
 */
export const MAX_CONNECTION_AGE_GRACE_MS = 35 * 60_000;

export interface GrpcServerHandle {
  /** The bound port (useful when asked for port 0). */
  port: number;
  server: grpc.Server;
  /** Marks the server SERVING (call once dependencies are ready) or NOT_SERVING (when draining). */
  setServing(serving: boolean): void;
  /** Stops accepting calls, lets in-flight ones finish for up to `graceMs`, then forces. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Wraps every unary handler of a service so each call runs in a SERVER span continuing the caller's
 * `traceparent`, and is counted by method and status in `registry` when one is given.
 */
function instrument(
  service: string,
  definition: grpc.ServiceDefinition,
  implementation: grpc.UntypedServiceImplementation,
  metrics: ReturnType<typeof requestMetrics> | undefined,
): grpc.UntypedServiceImplementation {
  const wrapped: grpc.UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(implementation)) {
    const path = definition[name]?.path ?? name;
    if (definition[name]?.requestStream || definition[name]?.responseStream) {
      wrapped[name] = handler;
      continue;
    }
    const unaryHandler = handler as grpc.handleUnaryCall<unknown, unknown>;
    wrapped[name] = ((
      call: grpc.ServerUnaryCall<unknown, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      const startedAt = performance.now();
      const parent = contextFrom({ traceparent: String(call.metadata.get('traceparent')[0] ?? '') });
      const { span, context } = startSpan(`grpc ${path}`, { service, kind: SpanKind.SERVER, parent });
      withContext(context, () =>
        unaryHandler(call, (err, value) => {
          const code = err ? String(err.metadata?.get(APP_CODE_METADATA)[0] ?? err.code ?? 'ERROR') : 'OK';
          if (err) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
          span.setAttribute('agentpay.code', code);
          span.end();
          metrics?.observe({ method: path }, code, startedAt);
          callback(err, value);
        }),
      );
    }) as grpc.handleUnaryCall<unknown, unknown>;
  }
  return wrapped;
}

/** Starts a gRPC server with grpc.health.v1 on `host:port`; health starts NOT_SERVING. */
export async function startGrpcServer(opts: {
  host: string;
  port: number;
  services: ReadonlyArray<[grpc.ServiceDefinition, grpc.UntypedServiceImplementation]>;
  /** Service name for spans and metrics; default `grpc`. */
  name?: string;
  /** Where to count calls by method and outcome (`grpc_server_requests_total`, latency histogram). */
  registry?: Registry;
  /** Largest request accepted, bytes; default gRPC's 4 MiB (compliance takes list uploads in one call). */
  maxReceiveMessageBytes?: number;
}): Promise<GrpcServerHandle> {
  const server = new grpc.Server({
    ...(opts.maxReceiveMessageBytes && { 'grpc.max_receive_message_length': opts.maxReceiveMessageBytes }),
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.enable_channelz': 0,
    // Clients look their target up again only when a connection changes; closing each connection after
    // a while (calls in flight get the grace to finish) is what brings a newly started replica into their
    // rotation (docs/deploy.md, "Replicas and a NATS cluster").
    'grpc.max_connection_age_ms': MAX_CONNECTION_AGE_MS,
    'grpc.max_connection_age_grace_ms': MAX_CONNECTION_AGE_GRACE_MS,
  });
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  const metrics = opts.registry ? requestMetrics(opts.registry, 'grpc_server', ['method']) : undefined;
  for (const [definition, implementation] of opts.services) {
    server.addService(definition, instrument(opts.name ?? 'grpc', definition, implementation, metrics));
  }
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${opts.host}:${opts.port}`, grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    );
  });
  return {
    port,
    server,
    setServing(serving) {
      health.setStatus('', serving ? 'SERVING' : 'NOT_SERVING');
    },
    stop(graceMs = 10_000) {
      health.setStatus('', 'NOT_SERVING');
      return new Promise((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

const HealthClient = grpc.makeGenericClientConstructor(healthService, 'Health');

/** Asks a server's grpc.health.v1 whether it is SERVING; false on any failure. */
export function checkGrpcHealth(address: string, timeoutMs = 2_000): Promise<boolean> {
  const client = new HealthClient(address, grpc.credentials.createInsecure());
  return new Promise<boolean>((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (value: { service: string }) => Buffer.from(healthService['Check']!.requestSerialize(value)),
      (buffer: Buffer) => healthService['Check']!.responseDeserialize(buffer) as { status: string },
      { service: '' },
      new grpc.Metadata(),
      { deadline: new Date(Date.now() + timeoutMs) },
      (err, response) => resolve(!err && response?.status === 'SERVING'),
    );
  }).finally(() => client.close());
}
