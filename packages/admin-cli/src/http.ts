/** Exit codes of the CLI, documented in the help text. */
export const Exit = {
  OK: 0,
  /** The API answered with an error, or a local file could not be used. */
  FAILED: 1,
  /** The command line is wrong. */
  USAGE: 2,
  /** The API could not be reached. */
  UNREACHABLE: 3,
} as const;

/** A failure that ends the command with `exitCode` and `message` on stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export function usage(message: string): CliError {
  return new CliError(message, Exit.USAGE);
}

/** A pending four-eyes approval, as the admin API answers a request that waits for a second person (202). */
export interface Approval {
  id: string;
  state: string;
  action?: string;
  summary?: string;
}

/**
 * Not a failure: the admin API took the request as a four-eyes approval (202) and nothing happened yet.
 * Thrown so that every command that may need four eyes ends the same way (cli.ts prints it, exit 0).
 */
export class PendingApproval extends Error {
  constructor(
    readonly body: { approval: Approval },
    readonly request: string,
  ) {
    super(`approval ${body.approval.id} pending`);
  }
}

export interface ApiTarget {
  /** Human name for messages: "admin API". */
  name: string;
  baseUrl: string;
  /** Bearer token; undefined when nobody is signed in (`noToken` says what to do). */
  token: string | undefined;
  /** Why there is no token and what to do, e.g. "not signed in: npm run admin -- login". */
  noToken?: string;
  /** Said after a 401: where the token came from and how to get a good one. */
  unauthorizedHint?: string;
  /** Said after a 404 of the endpoint itself (not of a resource), e.g. that the API is not deployed yet. */
  missingHint?: string;
}

const TIMEOUT_MS = 15_000;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Sent {
  status: number;
  headers: Headers;
  /** The body parsed as JSON, or its text when it is not JSON; null when empty. */
  body: unknown;
}

/** One HTTP call, with no opinion on the status; only an unreachable API throws (exit 3). */
export async function send(
  target: Pick<ApiTarget, 'name' | 'baseUrl'>,
  method: Method,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const url = `${target.baseUrl.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw unreachable(target, err);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw unreachable(target, err);
  }
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the message.
  }
  return { status: response.status, headers: response.headers, body };
}

export function unreachable(target: Pick<ApiTarget, 'name' | 'baseUrl'>, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const reason =
    (err as Error).name === 'TimeoutError'
      ? `no answer within ${TIMEOUT_MS / 1000} s`
      : (cause?.code ?? cause?.message ?? (err as Error).message);
  return new CliError(
    `cannot reach the ${target.name} at ${target.baseUrl} (${reason}): is the stack running (npm start), and is the URL right?`,
    Exit.UNREACHABLE,
  );
}

/** The CliError (exit 1) of an answer that is not a success: status, the API's message, and a hint. */
export function refused(target: ApiTarget, method: Method, path: string, sent: Sent): CliError {
  const parsed = sent.body;
  const detail =
    typeof parsed === 'object' && parsed !== null
      ? [(parsed as { error?: unknown }).error, (parsed as { message?: unknown }).message]
          .filter((part) => typeof part === 'string' && part !== '')
          .join(': ')
      : String(parsed).slice(0, 200);
  let hint = '';
  if (sent.status === 401) hint = ` (${target.unauthorizedHint ?? 'check ADMIN_TOKEN or --token'})`;
  // Fastify's own 404 for a path it has no route for, as opposed to the API's "not_found" for a resource.
  else if (
    sent.status === 404 &&
    /^Route .* not found$/.test(String((parsed as { message?: unknown })?.message ?? ''))
  )
    hint = target.missingHint ? ` (${target.missingHint})` : ' (this API endpoint does not exist here)';
  return new CliError(
    `${target.name} answered ${sent.status} to ${method} ${path.split('?')[0]}${detail ? `: ${detail}` : ''}${hint}`,
    Exit.FAILED,
  );
}

export function bearer(target: ApiTarget): Record<string, string> {
  if (target.token === undefined)
    throw new CliError(target.noToken ?? 'no token: npm run admin -- login', Exit.FAILED);
  return { authorization: `Bearer ${target.token}` };
}

/**
 * Calls the API with the bearer token; answers the parsed JSON body, or throws CliError with a clear message.
 * A 202 with a pending approval (four eyes) throws PendingApproval.
 */
export async function callApi(
  target: ApiTarget,
  method: Method,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const sent = await send(target, method, path, { body, headers: bearer(target) });
  if (sent.status === 202 && isPendingApproval(sent.body)) {
    throw new PendingApproval(sent.body, `${method} ${path}`);
  }
  if (sent.status >= 200 && sent.status < 300) return sent.body;
  throw refused(target, method, path, sent);
}

function isPendingApproval(body: unknown): body is { approval: Approval } {
  const approval = (body as { approval?: { id?: unknown; state?: unknown } } | null)?.approval;
  return typeof approval?.id === 'string' && approval.state === 'pending';
}

/** Streams a non-JSON answer (CSV) to `write`, chunk by chunk; a refusal throws as callApi does. */
export async function streamApi(
  target: ApiTarget,
  path: string,
  write: (chunk: Uint8Array) => Promise<void> | void,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${target.baseUrl.replace(/\/+$/, '')}${path}`, {
      headers: bearer(target),
      signal: AbortSignal.timeout(10 * TIMEOUT_MS),
    });
  } catch (err) {
    throw unreachable(target, err);
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text
    }
    throw refused(target, 'GET', path, { status: response.status, headers: response.headers, body });
  }
  try {
    for await (const chunk of response.body) await write(chunk);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw unreachable(target, err);
  }
}
