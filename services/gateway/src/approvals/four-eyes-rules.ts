import type { FastifyRequest } from '@agentpay/http';

// Which admin requests need a second person (services/gateway/README.md "Four eyes"):
// those that move money or change who can move it. The permission tables (each module's *.permissions.ts) ask these
// for each request of the routes concerned; a request they answer true for goes to an approval.

/**
 * What an operator may change on a route at once, without a second person: in an incident a route is taken
 * out (enabled, weight) or put behind another (priority) now, and its name says nothing about money. Every
 * other field (the adapter, its config and credentials, what it serves, whom it serves) decides where money
 * goes and needs four eyes.
 */
export const ROUTE_FIELDS_AT_ONCE: readonly string[] = ['name', 'weight', 'priority', 'enabled'];

/** The resolutions that move money; `apply` makes an order pay as its own sync would. */
export const FOUR_EYES_RESOLUTIONS: readonly string[] = ['credit', 'return'];

const bodyOf = (request: Pick<FastifyRequest, 'body'>): Record<string, unknown> | undefined => {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
};

/** Every request of the route needs four eyes (adjustments, creating a route, a route's merchants). */
export const always = (): boolean => true;

/** A PATCH of a route that changes anything but its name, weight, priority or enabled. */
export function routeChangeNeedsFourEyes(request: Pick<FastifyRequest, 'body'>): boolean {
  const body = bodyOf(request);
  return body !== undefined && Object.keys(body).some((field) => !ROUTE_FIELDS_AT_ONCE.includes(field));
}

/** A PATCH of a merchant that adds a public key (the whole request waits, not only the key). */
export function merchantChangeNeedsFourEyes(request: Pick<FastifyRequest, 'body'>): boolean {
  const body = bodyOf(request);
  // Adding a key decides who can sign as the merchant; turning registered-payees-only off relaxes a control.
  return body !== undefined && (body['addPublicKey'] !== undefined || body['registeredPayeesOnly'] === false);
}

/** A resolution by credit or return. */
export function resolutionNeedsFourEyes(request: Pick<FastifyRequest, 'body'>): boolean {
  const action = bodyOf(request)?.['action'];
  return typeof action === 'string' && FOUR_EYES_RESOLUTIONS.includes(action);
}
