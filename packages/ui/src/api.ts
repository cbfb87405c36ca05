import * as z from 'zod/mini';

// The one typed client both apps talk through (STYLE.md "Web apps"): every answer is checked against a zod
// schema before a page sees it, state-changing calls carry the session's CSRF token (CONTRACT section 17),
// and a 401 sends the person to sign in.

export const sessionUser = z.object({
  id: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
});
export const session = z.object({ csrfToken: z.string(), user: sessionUser });
export type Session = z.infer<typeof session>;

export const invitation = z.object({ email: z.string(), name: z.string() });
export const enrolment = z.object({ totpSecret: z.string(), otpauthUri: z.string() });
export const recoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });

/** What a four-eyes action answers instead of doing it (CONTRACT section 17 "Four eyes"). */
export const pendingApproval = z.object({
  approval: z.object({
    id: z.string(),
    state: z.string(),
    action: z.string(),
    summary: z.optional(z.string()),
  }),
});
export type PendingApproval = z.infer<typeof pendingApproval>['approval'];

const errorBody = z.object({ error: z.optional(z.string()), message: z.optional(z.string()) });

/** A refusal or failure, with the API's own code and message when it sent them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | undefined | null>;

export interface ApiClient {
  /** Where the browser calls live: `/console/api` or `/dashboard/api`. */
  readonly sessionBase: string;
  session(): Session | null;
  get<T>(path: string, schema: z.ZodMiniType<T>, query?: Query): Promise<T>;
  /** A state-changing call. A 202 with an approval is returned as such, not parsed with `schema`. */
  send<T>(
    method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    body: unknown,
    schema: z.ZodMiniType<T>,
  ): Promise<{ done: T } | { approval: PendingApproval }>;
  signIn(body: { email: string; password: string; code: string }): Promise<Session>;
  /**
   * The session the browser's cookie holds, asked of the server (`GET <sessionBase>/session`): a new tab, a
   * link from an e-mail or a restored browser has the cookie but no CSRF token of its own. Null when the
   * server knows no session (401); the tab's own on a network failure.
   */
  restore(): Promise<Session | null>;
  signOut(): Promise<void>;
}

export interface ApiClientOptions {
  sessionBase: string;
  /** Called on a 401 from any call but sign-in's own. */
  onUnauthorized(): void;
}

export function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  // The CSRF token lives as long as the tab: the session cookie itself is HttpOnly and never seen here. A tab
  // that did not sign in itself asks the server for it (`restore`).
  const storageKey = `agentpay.session:${opts.sessionBase}`;
  let current: Session | null = null;
  try {
    const saved = sessionStorage.getItem(storageKey);
    current = saved ? session.parse(JSON.parse(saved)) : null;
  } catch {
    current = null;
  }
  const remember = (value: Session | null) => {
    current = value;
    try {
      if (value) sessionStorage.setItem(storageKey, JSON.stringify(value));
      else sessionStorage.removeItem(storageKey);
    } catch {
      // Kept in memory only.
    }
  };

  async function request(method: string, path: string, body?: unknown, quiet401 = false): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && current) headers['x-csrf-token'] = current.csrfToken;
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, 'network', 'network');
    }
    if (response.ok) return response;
    const parsed = errorBody.safeParse(await response.json().catch(() => ({})));
    const code = (parsed.success && parsed.data.error) || String(response.status);
    const message = (parsed.success && parsed.data.message) || response.statusText;
    if (response.status === 401 && !quiet401) {
      remember(null);
      opts.onUnauthorized();
    }
    throw new ApiError(response.status, code, message);
  }

  async function parse<T>(response: Response, schema: z.ZodMiniType<T>): Promise<T> {
    const result = schema.safeParse(await response.json());
    if (!result.success) throw new ApiError(response.status, 'unexpected_answer', result.error.message);
    return result.data;
  }

  return {
    sessionBase: opts.sessionBase,
    session: () => current,
    async get(path, schema, query) {
      return parse(await request('GET', withQuery(path, query)), schema);
    },
    async send(method, path, body, schema) {
      const response = await request(method, path, body);
      if (response.status === 202) {
        const approval = await parse(response, pendingApproval);
        return { approval: approval.approval };
      }
      if (response.status === 204) return { done: schema.parse(undefined) };
      return { done: await parse(response, schema) };
    },
    async signIn(body) {
      const signedIn = await parse(await request('POST', `${opts.sessionBase}/session`, body, true), session);
      remember(signedIn);
      return signedIn;
    },
    async restore() {
      // A sign-in or sign-out of this tab while the answer travels wins over it.
      const asked = current;
      try {
        const restored = await parse(
          await request('GET', `${opts.sessionBase}/session`, undefined, true),
          session,
        );
        if (current === asked) remember(restored);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401 && current === asked) remember(null);
      }
      return current;
    },
    async signOut() {
      try {
        await request('DELETE', `${opts.sessionBase}/session`, undefined, true);
      } finally {
        remember(null);
      }
    },
  };
}
