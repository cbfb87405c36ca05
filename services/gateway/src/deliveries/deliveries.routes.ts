import type { FastifyInstance, FastifyReply } from '@agentpay/http';

export interface DeliveriesAdminDeps {
  /** The notifier's HTTP port (NOTIFIER_URL). */
  notifierUrl: string;
  /** NOTIFIER_ADMIN_TOKEN: the notifier's admin API answers only the gateway. */
  notifierToken: string;
  timeoutMs: number;
}

/**
 * Callback deliveries (services/notifier/README.md "Admin API") on the gateway's admin port, so the one
 * authorisation point decides who may read and resend them; forwarded over HTTP with the internal token,
 * answered as the notifier answers.
 */
export function registerDeliveriesAdmin(app: FastifyInstance, deps: DeliveriesAdminDeps): void {
  async function forward(reply: FastifyReply, method: 'GET' | 'POST', path: string) {
    let response: Response;
    try {
      response = await fetch(`${deps.notifierUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${deps.notifierToken}` },
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
    } catch {
      return reply
        .code(503)
        .send({ error: 'unavailable', message: 'the notifier did not answer; try again' });
    }
    const text = await response.text();
    if (response.status === 401) {
      // The notifier refused the gateway itself: a configuration fault, not the caller's.
      return reply
        .code(502)
        .send({ error: 'bad_gateway', message: 'the notifier refused NOTIFIER_ADMIN_TOKEN' });
    }
    return reply
      .code(response.status)
      .header('content-type', response.headers.get('content-type') ?? 'application/json; charset=utf-8')
      .send(text);
  }

  // Re-encoded from the parsed query: whatever the caller spelled, the notifier gets a well-formed URL.
  const withQuery = (path: string, parsed: unknown) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries((parsed ?? {}) as Record<string, unknown>)) {
      for (const one of [value].flat()) query.append(key, String(one));
    }
    return query.size ? `${path}?${query}` : path;
  };

  app.get('/admin/deliveries', async (request, reply) =>
    forward(reply, 'GET', withQuery('/admin/deliveries', request.query)),
  );
  app.get<{ Params: { id: string } }>('/admin/deliveries/:id', async (request, reply) =>
    forward(reply, 'GET', `/admin/deliveries/${encodeURIComponent(request.params.id)}`),
  );
  app.post<{ Params: { id: string } }>('/admin/deliveries/:id/resend', async (request, reply) =>
    forward(reply, 'POST', `/admin/deliveries/${encodeURIComponent(request.params.id)}/resend`),
  );

  // The console's home: the callback backlog and the endpoints that keep failing (docs/console.md "Home").
  app.get('/admin/callbacks/backlog', async (request, reply) =>
    forward(reply, 'GET', withQuery('/admin/callbacks/backlog', request.query)),
  );
  app.get('/admin/callbacks/failing-endpoints', async (request, reply) =>
    forward(reply, 'GET', withQuery('/admin/callbacks/failing-endpoints', request.query)),
  );
}
