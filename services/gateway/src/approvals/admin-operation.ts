import type { FastifyRequest } from '@agentpay/http';
import { type CallOrigin, originMetadata } from '@agentpay/proto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { SYSTEM_DEV } from '../identity/index.js';

// An admin request that may need four eyes is an operation in two steps: `prepare` checks it in full, as
// the route would (what would be refused with 400, 404 or 409 is refused here, before any approval exists),
// and `perform` does it. The route runs both at once; with four eyes, the approval stores what `prepare`
// answered and runs `perform` once a second person approves.

/** An HTTP answer as a value: what a route sends, and what an approval stores as its result. */
export interface HttpResult {
  status: number;
  body: unknown;
}

export type Prepared<P> =
  | { ok: false; refusal: HttpResult }
  | {
      ok: true;
      /** Everything perform needs, as JSON: it is stored with the approval and executed exactly as it is. */
      payload: P;
      /** One line for the approver: what will happen. */
      summary: string;
      /** What it acts on, `kind:id`. */
      target: string;
    };

/** How one performance runs: on whose behalf, and for which approval. */
export interface PerformContext {
  origin: CallOrigin | undefined;
  /**
   * Given when the performance carries out an approval: an operation whose effect is a write to the gateway's
   * own database calls it inside that write's transaction, so the approval is marked executed in the same
   * commit (exactly once by construction). Operations on other services ignore it; their idempotency key is
   * derived from the approval.
   */
  markExecuted?: ((trx: Transaction<Database>, result: HttpResult) => Promise<void>) | undefined;
}

export interface AdminOperation<P = unknown> {
  /** The name approvals and the audit log use, e.g. `ledger.adjust`. */
  action: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route's URL pattern as registered, e.g. `/admin/merchants/:mchNo/adjustments`. */
  url: string;
  /**
   * Who may approve (or reject) it; default `approver` or `owner`. The compliance desk's operations name
   * `compliance` or `owner` (CONTRACT section 20).
   */
  approverRoles?: readonly string[];
  prepare(request: FastifyRequest): Promise<Prepared<P>>;
  /**
   * Does it. A refusal is an HttpResult like any other answer; a throw means the outcome is unknown (a
   * service unreachable), and an approval stays approved for the sweep to try again, so every perform must
   * be safe to repeat for one approval.
   */
  perform(payload: P, context: PerformContext): Promise<HttpResult>;
}

/** The operations by route and by action name; the admin routes add theirs, approvals look them up. */
export interface OperationRegistry {
  add<P>(operation: AdminOperation<P>): AdminOperation<P>;
  byRoute(method: string, url: string | undefined): AdminOperation | undefined;
  byAction(action: string): AdminOperation | undefined;
}

export function createOperationRegistry(): OperationRegistry {
  const routes = new Map<string, AdminOperation>();
  const actions = new Map<string, AdminOperation>();
  return {
    add(operation) {
      const key = `${operation.method} ${operation.url}`;
      if (routes.has(key) || actions.has(operation.action))
        throw new Error(`operation ${operation.action} (${key}) added twice`);
      routes.set(key, operation as AdminOperation);
      actions.set(operation.action, operation as AdminOperation);
      return operation;
    },
    byRoute: (method, url) => (url === undefined ? undefined : routes.get(`${method} ${url}`)),
    byAction: (action) => actions.get(action),
  };
}

/** Who is behind an admin request, as it travels to the services; undefined when no one is named. */
export function originOfRequest(request: FastifyRequest): CallOrigin | undefined {
  const actor = request.actor;
  return actor && { actor: { id: actor.id, label: actor.label, roles: [...actor.roles] } };
}

/** The built-in actor's origin, for work no request carries (none today; kept for scripts). */
export const SYSTEM_ORIGIN: CallOrigin = { actor: { id: SYSTEM_DEV, label: SYSTEM_DEV, roles: [] } };

/**
 * Options for an admin gRPC call carrying its origin: the one helper every admin call of the gateway goes
 * through, so the services record who (x-agentpay-actor) and for which approval (x-agentpay-approval).
 */
export function adminCall(
  origin: CallOrigin | undefined,
  timeoutMs: number,
  extra: { validateOnly?: boolean } = {},
) {
  return origin
    ? { timeoutMs, metadata: originMetadata({ ...origin, validateOnly: extra.validateOnly }) }
    : extra.validateOnly
      ? { timeoutMs, metadata: originMetadata({ ...SYSTEM_ORIGIN, validateOnly: true }) }
      : { timeoutMs };
}

/** Runs an operation as its route does when no four eyes are asked for: prepare, then perform. */
export async function runAtOnce<P>(
  operation: AdminOperation<P>,
  request: FastifyRequest,
): Promise<HttpResult> {
  const prepared = await operation.prepare(request);
  if (!prepared.ok) return prepared.refusal;
  return operation.perform(prepared.payload, { origin: originOfRequest(request) });
}
