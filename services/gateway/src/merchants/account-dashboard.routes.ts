import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from '@agentpay/http';
import { parsePublicKey } from '@agentpay/wire';
import { z } from 'zod';
import { type Actor, PeopleError } from '../identity/index.js';
import { type NotifierClient, NotifierError, notifierFailureReply } from '../shared/notifier-client.js';
import { schemaProblem } from '../shared/schema-problem.js';
import {
  MAX_ACTIVE_KEYS,
  MerchantAdminError,
  type MerchantService,
  type MerchantView,
} from './merchant.service.js';

// The merchant dashboard's account calls (docs/console.md "Dashboard API"): the merchant's API keys, the
// platform public key, and its recent failing callbacks. Every call acts on the signed-in person's merchant
// (the session's scope), never on a merchant number the browser sends; who may call what is
// people/dashboard-account.permissions.ts.
//
// Keys without four eyes: CONTRACT section 17 asks a second person for "adding a merchant public key through
// the admin API", where an operator changes who can sign as someone else's merchant. Here the merchant's own
// owner or admin, signed in with password and TOTP, rotates the merchant's own key, as section 18 gives the
// dashboard "add a public key … revoke"; merchant roles have no approver to ask. Each change is in the audit
// log under the person's name and in the merchant's security history.

export interface AccountDashboardDeps {
  merchants: MerchantService;
  platformPublicKeyPem: string;
  /** The notifier's admin API (shared/notifier-client.ts), for the merchant's failing callbacks. */
  notifier: NotifierClient;
}

const addKey = z.object({ publicKey: z.string().trim().min(1).max(10_000) }).strict();
const keyId = z.string().uuid('a key id');
const failuresQuery = z
  .object({
    cursor: z.string().max(100).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new PeopleError('invalid', schemaProblem(result.error));
}

const mchNoOf = (request: FastifyRequest): string => {
  const scope = (request.actor as Actor | undefined)?.scope;
  if (scope?.kind !== 'merchant') throw new PeopleError('forbidden', 'not a merchant person');
  return scope.mchNo;
};

/** The merchant service's refusals in the dashboard's words (PeopleError: 400, 404, 409). */
function refusal(err: unknown): never {
  if (err instanceof MerchantAdminError) {
    throw new PeopleError(err.kind, err.message);
  }
  throw err;
}

const fingerprintOfPem = (pem: string): string | undefined => {
  try {
    return createHash('sha256')
      .update(parsePublicKey(pem).export({ type: 'spki', format: 'der' }))
      .digest('hex');
  } catch {
    return undefined; // the merchant service words the refusal
  }
};

const keysOf = (view: MerchantView) => ({ keys: view.keys, maxActive: MAX_ACTIVE_KEYS });

/** One failing callback as its merchant sees it: no worker names, no lease. */
const delivery = z.object({
  id: z.string(),
  kind: z.string(),
  orderNo: z.string(),
  version: z.union([z.number(), z.string()]),
  toStatus: z.string(),
  notifyUrl: z.string().nullable(),
  status: z.string(),
  attemptCount: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastHttpStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const deliveryPage = z.object({ deliveries: z.array(z.unknown()), next: z.string().optional() });

export function registerAccountDashboard(app: FastifyInstance, deps: AccountDashboardDeps): void {
  const { merchants } = deps;

  app.get('/dashboard/api/keys', async (request) => keysOf(await merchants.get(mchNoOf(request))));

  app.post('/dashboard/api/keys', async (request, reply) => {
    const mchNo = mchNoOf(request);
    const body = parse(addKey, request.body);
    const before = await merchants.get(mchNo);
    if (before.keys.filter((k) => k.status === 'active').length >= MAX_ACTIVE_KEYS) {
      throw new PeopleError(
        'conflict',
        `a merchant has at most ${MAX_ACTIVE_KEYS} active keys: revoke the one you no longer use first`,
      );
    }
    const fingerprint = fingerprintOfPem(body.publicKey);
    if (fingerprint && before.keys.some((k) => k.status === 'active' && k.fingerprint === fingerprint)) {
      throw new PeopleError('conflict', 'this key is already an active key of the merchant');
    }
    const after = await merchants.update(mchNo, { addPublicKey: body.publicKey }).catch(refusal);
    const known = new Set(before.keys.map((k) => k.id));
    const added = after.keys.find((k) => !known.has(k.id));
    request.auditNote = { target: `key:${added?.id ?? 'new'}`, after: added };
    return reply.code(201).send({ key: added, ...keysOf(after) });
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/keys/:id/revoke', async (request) => {
    const mchNo = mchNoOf(request);
    const id = request.params.id;
    const before = await merchants.get(mchNo);
    const key = keyId.safeParse(id).success ? before.keys.find((k) => k.id === id) : undefined;
    // Another merchant's key is as unknown as a key that never existed.
    if (!key) throw new PeopleError('not_found', 'no such key');
    if (key.status !== 'active') throw new PeopleError('conflict', 'the key is already revoked');
    if (!before.keys.some((k) => k.status === 'active' && k.id !== id)) {
      throw new PeopleError(
        'conflict',
        'this is the only active key: add its successor first, so the merchant can still sign',
      );
    }
    // The service checks again under the merchant's lock: two revokes at once cannot leave none active.
    const after = await merchants.update(mchNo, { revokeKeyIds: [id] }).catch(refusal);
    const revoked = after.keys.find((k) => k.id === id);
    request.auditNote = { target: `key:${id}`, before: key, after: revoked };
    return { key: revoked, ...keysOf(after) };
  });

  const platform = {
    publicKey: deps.platformPublicKeyPem,
    fingerprint: fingerprintOfPem(deps.platformPublicKeyPem) ?? '',
  };
  app.get('/dashboard/api/platform-key', async () => platform);
  app.get('/dashboard/api/platform-key.pem', async (_request, reply) =>
    reply
      .header('content-type', 'application/x-pem-file')
      .header('content-disposition', 'attachment; filename="agentpay-platform-public-key.pem"')
      .send(deps.platformPublicKeyPem),
  );

  app.get('/dashboard/api/callbacks/failures', async (request, reply) => {
    const query = parse(failuresQuery, request.query);
    const search = { failing: 'true', mchNo: mchNoOf(request), limit: query.limit, cursor: query.cursor };
    let answer: { status: number; body: { message?: string } };
    try {
      answer = await deps.notifier.json('GET', '/admin/deliveries', { query: search });
    } catch (err) {
      return notifierFailureReply(reply, err);
    }
    if (answer.status === 400) {
      // Only the cursor comes from the caller: a cursor the notifier does not take is the caller's mistake.
      throw new PeopleError('invalid', answer.body.message ?? 'cursor: the next of the previous page');
    }
    // Anything else is the notifier's trouble, not the merchant's.
    if (answer.status < 200 || answer.status > 299) {
      return notifierFailureReply(reply, new NotifierError('unavailable'));
    }
    const page = deliveryPage.parse(answer.body);
    return {
      items: page.deliveries.map((d) => delivery.parse(d)),
      ...(page.next ? { next: page.next } : {}),
    };
  });
}
