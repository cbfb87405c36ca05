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

export interface ApiTarget {
  /** Human name for messages: "admin API", "notifier admin API". */
  name: string;
  baseUrl: string;
  token: string;
  /** Said after a 404 of the endpoint itself (not of a resource), e.g. that the API is not deployed yet. */
  missingHint?: string;
}

const TIMEOUT_MS = 15_000;

/** Calls the API with the bearer token; answers the parsed JSON body, or throws CliError with a clear message. */
export async function callApi(
  target: ApiTarget,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const url = `${target.baseUrl.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new CliError(
      `cannot reach the ${target.name} at ${target.baseUrl} (${reason}): is the stack running (npm start), and is the URL right?`,
      Exit.UNREACHABLE,
    );
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the message.
  }
  if (response.ok) return parsed;

  const detail =
    typeof parsed === 'object' && parsed !== null
      ? [(parsed as { error?: unknown }).error, (parsed as { message?: unknown }).message]
          .filter((part) => typeof part === 'string' && part !== '')
          .join(': ')
      : String(parsed).slice(0, 200);
  let hint = '';
  if (response.status === 401) hint = ' (check ADMIN_TOKEN or --token)';
  // Fastify's own 404 for a path it has no route for, as opposed to the API's "not_found" for a resource.
  else if (
    response.status === 404 &&
    /^Route .* not found$/.test(String((parsed as { message?: unknown })?.message ?? ''))
  )
    hint = target.missingHint ? ` (${target.missingHint})` : ' (this API endpoint does not exist here)';
  throw new CliError(
    `${target.name} answered ${response.status} to ${method} ${path}${detail ? `: ${detail}` : ''}${hint}`,
    Exit.FAILED,
  );
}
