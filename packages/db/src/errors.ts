/** How to get each dependency running on a developer machine; one place, so every message agrees. */
export const DEPENDENCY_HINTS = {
  postgres:
    'start it locally with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`, ' +
    'or set DATABASE_URL to a reachable server',
  nats:
    'start it locally with `start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- ' +
    '-a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log`, ' +
    'or set NATS_URL to a reachable server with JetStream enabled',
} as const;

export type Dependency = keyof typeof DEPENDENCY_HINTS;

const DISPLAY_NAMES: Record<Dependency, string> = { postgres: 'Postgres', nats: 'NATS' };
const DEFAULT_PORTS: Record<Dependency, string> = { postgres: '5432', nats: '4222' };

/** Removes the password from a connection URL so it can be logged or shown in an error. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString();
  } catch {
    // Not a URL we can parse: strip anything that looks like `:secret@` rather than echo it back.
    return url.replace(/:[^:@/]*@/, '@');
  }
}

/** `host:port` of a connection URL (comma-separated NATS server lists keep every entry). */
export function hostPort(url: string, dependency: Dependency): string {
  return url
    .split(',')
    .map((one) => {
      try {
        const parsed = new URL(one.includes('://') ? one : `${dependency}://${one}`);
        return `${parsed.hostname}:${parsed.port || DEFAULT_PORTS[dependency]}`;
      } catch {
        return redactUrl(one);
      }
    })
    .join(',');
}

/** A readable reason: Node reports a refused dual-stack connect as an AggregateError with an empty message. */
function describeCause(cause: unknown): string {
  if (cause instanceof AggregateError && !cause.message) {
    const inner = cause.errors.find((e): e is Error => e instanceof Error && e.message !== '');
    if (inner) return inner.message;
  }
  if (cause instanceof Error) return cause.message || (cause as { code?: string }).code || cause.name;
  return cause === undefined ? 'no answer' : String(cause);
}

/** Thrown at start-up when Postgres or NATS cannot be reached; the message says where and how to fix it. */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
  /** The URL that was tried, password removed. */
  readonly url: string;
  /** What to do about it. */
  readonly hint: string;

  constructor(
    readonly dependency: Dependency,
    url: string,
    cause?: unknown,
  ) {
    const reason = describeCause(cause);
    const hint = DEPENDENCY_HINTS[dependency];
    super(
      `${DISPLAY_NAMES[dependency]} is not reachable at ${hostPort(url, dependency)} (${redactUrl(url)}): ${reason}. ` +
        `To fix: ${hint}.`,
      { cause },
    );
    this.url = redactUrl(url);
    this.hint = hint;
  }
}
