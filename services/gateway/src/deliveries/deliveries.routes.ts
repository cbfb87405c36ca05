import type { FastifyInstance } from '@agentpay/http';
import type { NotifierClient } from '../shared/notifier-client.js';

export interface DeliveriesAdminDeps {
  /** The notifier's admin API (shared/notifier-client.ts). */
  notifier: NotifierClient;
}

/**
 * Callback deliveries (services/notifier/README.md "Admin API") on the gateway's admin port, so the one
 * authorisation point decides who may read and resend them; forwarded with the internal token, answered as
 * the notifier answers.
 */
export function registerDeliveriesAdmin(app: FastifyInstance, deps: DeliveriesAdminDeps): void {
  const { notifier } = deps;

  app.get('/admin/deliveries', async (request, reply) =>
    notifier.forward(reply, 'GET', '/admin/deliveries', { query: request.query }),
  );
  app.get<{ Params: { id: string } }>('/admin/deliveries/:id', async (request, reply) =>
    notifier.forward(reply, 'GET', `/admin/deliveries/${encodeURIComponent(request.params.id)}`),
  );
  app.post<{ Params: { id: string } }>('/admin/deliveries/:id/resend', async (request, reply) =>
    notifier.forward(reply, 'POST', `/admin/deliveries/${encodeURIComponent(request.params.id)}/resend`),
  );

  // The console's home: the callback backlog and the endpoints that keep failing (docs/console.md "Home").
  app.get('/admin/callbacks/backlog', async (request, reply) =>
    notifier.forward(reply, 'GET', '/admin/callbacks/backlog', { query: request.query }),
  );
  app.get('/admin/callbacks/failing-endpoints', async (request, reply) =>
    notifier.forward(reply, 'GET', '/admin/callbacks/failing-endpoints', { query: request.query }),
  );
}
