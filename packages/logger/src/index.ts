import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger } from 'pino';

/** Keys whose values never reach a log line, wherever they sit in the logged object. */
const REDACT = [
  'sign',
  'privateKey',
  'publicKey',
  'password',
  'token',
  'authorization',
  'req.headers.authorization',
  '*.sign',
  '*.privateKey',
  '*.publicKey',
  '*.password',
  '*.token',
  '*.authorization',
];

export interface LoggerConfig {
  /** Service name, set as `service` on every line. */
  service: string;
  /** pino level: trace, debug, info, warn, error, fatal, silent. */
  level?: string;
}

/** Creates the service's root logger: JSON lines, secrets redacted, `service` on every line. */
export function createLogger(config: LoggerConfig, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    level: config.level ?? 'info',
    base: { service: config.service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A child logger that stamps `traceId` on every line it writes. */
export function withTrace(logger: Logger, traceId: string): Logger {
  return logger.child({ traceId });
}
