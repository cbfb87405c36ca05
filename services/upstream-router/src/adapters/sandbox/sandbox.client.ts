import { Agent, request } from 'undici';
import type { z } from 'zod';
import {
  type RouteContext,
  UpstreamNotFoundError,
  UpstreamProtocolError,
  UpstreamUnavailableError,
} from '../channel-adapter.js';
import { errorCode, mayHaveBeenSent } from '../transport-errors.js';

/**
 * Connections to the channel, kept alive between calls. undici's `request` rather than `fetch`: the
 * same client without WHATWG streams and Request/Response objects. Under the create-pay bench the
 * router's CPU per pay went from about 0.95 to 0.4 ms with this change. Idle connections close after
 * undici's default 4 s (as fetch's did), well inside common server keep-alive limits: a channel closing
 * a connection just as a payout is written to it would make that payout's outcome unknown.
 */
const channelConnections = new Agent();

/** A route setting the adapter cannot work without; a route lacking it is unusable, not broken upstream. */
export function setting(route: RouteContext, key: string): string {
  const value = route.config[key];
  if (typeof value !== 'string' || value === '')
    throw new UpstreamUnavailableError(`route ${route.id} has no config.${key}`);
  return value;
}

/** The route's own `config.timeoutMs` when set (a slow channel), else the router's default. */
function timeoutFor(route: RouteContext, fallback: number): number {
  const own = route.config['timeoutMs'];
  return typeof own === 'number' && Number.isInteger(own) && own > 0 ? own : fallback;
}

/** One JSON call to the sandbox channel, its answer checked against `schema`. */
export async function channelRequest<S extends z.ZodType>(
  route: RouteContext,
  call: { method: 'GET' | 'POST'; path: string; body?: unknown; timeoutMs: number },
  schema: S,
): Promise<z.output<S>> {
  if (!route.credentials['apiKey'])
    throw new UpstreamUnavailableError(`route ${route.id} has no credentials`);
  const url = `${setting(route, 'baseUrl').replace(/\/+$/, '')}${call.path}`;
  let status: number;
  let text: string;
  // A timer cleared when the call ends, not AbortSignal.timeout: that one lives for the whole timeout
  // after every call, so each call's signal and listeners survived into the old generation.
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new DOMException('timed out', 'TimeoutError')),
    timeoutFor(route, call.timeoutMs),
  );
  try {
    const response = await request(url, {
      dispatcher: channelConnections,
      method: call.method,
      headers: {
        'x-api-key': route.credentials['apiKey'] ?? '',
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      signal: abort.signal,
    });
    status = response.statusCode;
    // An answer whose body breaks off still has its status; the checks below then judge it as before.
    text = await response.body.text().catch(() => '');
  } catch (err) {
    const code = errorCode(err);
    throw new UpstreamUnavailableError(`${call.method} ${call.path}: ${code ?? (err as Error).name}`, {
      ambiguous: mayHaveBeenSent(err),
      cause: err,
    });
  } finally {
    clearTimeout(timer);
  }
  if (status >= 500) throw new UpstreamUnavailableError(`${call.method} ${call.path}: HTTP ${status}`);
  if (status === 401 || status === 403)
    throw new UpstreamUnavailableError(`${call.method} ${call.path}: channel refused the credentials`);
  if (status === 404) throw new UpstreamNotFoundError(`${call.method} ${call.path}: not found`);
  if (status < 200 || status > 299)
    throw new UpstreamProtocolError(`${call.method} ${call.path}: HTTP ${status} ${text.slice(0, 200)}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UpstreamProtocolError(`${call.method} ${call.path}: answer is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new UpstreamProtocolError(
      `${call.method} ${call.path}: unexpected answer (${parsed.error.message})`,
    );
  return parsed.data;
}

/** Longest statement line accepted; a channel sending more without a newline is not sending NDJSON. */
const MAX_LINE_CHARS = 64 * 1024;

/**
 * One streamed GET of NDJSON from the sandbox channel, yielded line by line (blank lines skipped) as
 * the body arrives: memory holds one chunk, whatever the length of the answer. The route's timeout
 * bounds the wait for the headers and every pause between chunks, not the whole transfer. A body that
 * breaks off throws UpstreamUnavailableError after the lines already yielded; so does any failure,
 * a refusal (any status but 2xx) included.
 */
export async function* channelLines(
  route: RouteContext,
  call: { path: string; timeoutMs: number; signal?: AbortSignal | undefined },
): AsyncGenerator<string> {
  if (!route.credentials['apiKey'])
    throw new UpstreamUnavailableError(`route ${route.id} has no credentials`);
  const url = `${setting(route, 'baseUrl').replace(/\/+$/, '')}${call.path}`;
  const timeout = timeoutFor(route, call.timeoutMs);
  const what = `GET ${call.path}`;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      dispatcher: channelConnections,
      method: 'GET',
      headers: { 'x-api-key': route.credentials['apiKey'] ?? '' },
      headersTimeout: timeout,
      bodyTimeout: timeout,
      ...(call.signal ? { signal: call.signal } : {}),
    });
  } catch (err) {
    throw new UpstreamUnavailableError(`${what}: ${errorCode(err) ?? (err as Error).name}`, { cause: err });
  }
  const { statusCode: status, body } = response;
  try {
    // Whatever the refusal, the channel cannot give the stream now: the caller may try again later.
    if (status < 200 || status > 299) {
      const text = await body.text().catch(() => '');
      if (status === 401 || status === 403)
        throw new UpstreamUnavailableError(`${what}: channel refused the credentials`);
      throw new UpstreamUnavailableError(`${what}: HTTP ${status} ${text.slice(0, 200)}`);
    }
    // fatal: bytes that are not UTF-8 are a broken answer, not text with replacement characters.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let partial = '';
    try {
      for await (const chunk of body) {
        const lines = (partial + decoder.decode(chunk as Buffer, { stream: true })).split('\n');
        partial = lines.pop() ?? '';
        if (partial.length > MAX_LINE_CHARS)
          throw new UpstreamUnavailableError(`${what}: a line longer than ${MAX_LINE_CHARS} characters`);
        for (const line of lines) if (line.trim() !== '') yield line;
      }
      partial += decoder.decode();
    } catch (err) {
      if (err instanceof UpstreamUnavailableError) throw err;
      throw new UpstreamUnavailableError(`${what}: answer cut (${errorCode(err) ?? (err as Error).name})`, {
        cause: err,
      });
    }
    if (partial.trim() !== '') yield partial;
  } finally {
    // Stopped early (the caller went away, a bad line, an error answer): free the connection.
    if (!body.destroyed) body.destroy();
  }
}
