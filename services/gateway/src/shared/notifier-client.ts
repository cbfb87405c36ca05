import type { FastifyReply } from '@agentpay/http';

// The one client of the notifier's admin API (services/notifier/README.md "Admin API"): callback deliveries,
// their backlog and failing endpoints. The notifier answers only the gateway (NOTIFIER_ADMIN_TOKEN); every
// module that shows callbacks calls it through here, so a caller sees one wording for each way it can fail.

export interface NotifierClientDeps {
  /** The notifier's HTTP port (NOTIFIER_URL). */
  url: string;
  /** NOTIFIER_ADMIN_TOKEN. */
  token: string;
  /** How long a call waits for the answer, unless the call says otherwise. */
  timeoutMs: number;
}

/** Why there is no usable answer, as every route that calls the notifier answers it. */
export const NOTIFIER_FAILURES = {
  /** Not reached, or no answer in time. */
  unavailable: {
    status: 503,
    body: { error: 'unavailable', message: 'the notifier did not answer; try again' },
  },
  /** The notifier refused the gateway's own token: a configuration fault, not the caller's. */
  refused: { status: 502, body: { error: 'bad_gateway', message: 'the notifier refused the gateway' } },
  /** An answer that is not the JSON the admin API writes. */
  not_json: {
    status: 502,
    body: { error: 'bad_gateway', message: 'the notifier answered something else than JSON' },
  },
} as const;

export type NotifierFailure = keyof typeof NOTIFIER_FAILURES;

export class NotifierError extends Error {
  constructor(readonly kind: NotifierFailure) {
    super(NOTIFIER_FAILURES[kind].body.message);
    this.name = 'NotifierError';
  }
}

/** The notifier's answer as it came. */
export interface NotifierAnswer {
  status: number;
  contentType: string;
  text: string;
}

export type NotifierMethod = 'GET' | 'POST';

export interface NotifierCall {
  /** Query values, re-encoded: whatever the caller spelled, the notifier gets a well-formed URL. */
  query?: unknown;
  timeoutMs?: number;
}

export interface NotifierClient {
  /** One call; throws NotifierError when the notifier does not answer or refuses the gateway. */
  request(method: NotifierMethod, path: string, call?: NotifierCall): Promise<NotifierAnswer>;
  /** As request, the body parsed (NotifierError `not_json` when it is not JSON). */
  json<T = unknown>(
    method: NotifierMethod,
    path: string,
    call?: NotifierCall,
  ): Promise<{ status: number; body: T }>;
  /** Relays the notifier's answer to `reply` as it came (status, content type, body), or the failure's reply. */
  forward(
    reply: FastifyReply,
    method: NotifierMethod,
    path: string,
    call?: NotifierCall,
  ): Promise<FastifyReply>;
}

/** `path` with `query`'s values appended, each value of an array once. */
export function withQuery(path: string, query: unknown): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    for (const one of [value].flat()) if (one !== undefined) search.append(key, String(one));
  }
  return search.size ? `${path}?${search}` : path;
}

/** Answers a NotifierError with its status and body; anything else is rethrown for the port's error handler. */
export function notifierFailureReply(reply: FastifyReply, err: unknown): FastifyReply {
  if (!(err instanceof NotifierError)) throw err;
  const failure = NOTIFIER_FAILURES[err.kind];
  return reply.code(failure.status).send(failure.body);
}

export function createNotifierClient(deps: NotifierClientDeps): NotifierClient {
  async function request(method: NotifierMethod, path: string, call: NotifierCall = {}) {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${deps.url}${withQuery(path, call.query)}`, {
        method,
        headers: { authorization: `Bearer ${deps.token}` },
        signal: AbortSignal.timeout(call.timeoutMs ?? deps.timeoutMs),
      });
      text = await response.text();
    } catch {
      throw new NotifierError('unavailable');
    }
    if (response.status === 401) throw new NotifierError('refused');
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'application/json; charset=utf-8',
      text,
    };
  }

  return {
    request,
    async json<T>(method: NotifierMethod, path: string, call?: NotifierCall) {
      const answer = await request(method, path, call);
      try {
        return { status: answer.status, body: (answer.text ? JSON.parse(answer.text) : {}) as T };
      } catch {
        throw new NotifierError('not_json');
      }
    },
    async forward(reply, method, path, call) {
      try {
        const answer = await request(method, path, call);
        return reply.code(answer.status).header('content-type', answer.contentType).send(answer.text);
      } catch (err) {
        return notifierFailureReply(reply, err);
      }
    },
  };
}
