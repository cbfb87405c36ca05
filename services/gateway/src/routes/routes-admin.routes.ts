import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import type { CallOrigin } from '@agentpay/proto';
import {
  callKeepingStatus,
  type Route__Output,
  type RouteAdminClient,
  type RouteKey,
  type RouteList__Output,
  type RouteMerchantRequest,
  type RouteSpec,
  type SetRouteEnabledRequest,
  type SetRouteMerchantsRequest,
  type UpdateRouteRequest,
} from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import { z } from 'zod';
import {
  type AdminOperation,
  adminCall,
  type HttpResult,
  type OperationRegistry,
  originOfRequest,
  runAtOnce,
} from '../approvals/index.js';
import { MerchantAdminError, type MerchantService } from '../merchants/index.js';
import { schemaProblem } from '../shared/schema-problem.js';

// The operators' routes API (services/upstream-router/README.md "Routes admin API"). The router owns
// routes, so this is a thin JSON ↔ gRPC translation: the shape of a body is checked here (400 naming the
// field), what its values mean (adapters, payee codes, secret names) by the router.

const routeId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    '1 to 63 lowercase letters, digits or -, starting with a letter or digit',
  );
const mchNo = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');
const codes = z.array(z.string().min(1).max(50)).max(50);
const config = z.record(z.string(), z.unknown());

const fields = {
  name: z.string().min(1).max(100),
  adapter: z.string().min(1).max(50),
  // The variable holding the channel's credentials, for adapters that read one (the sandbox's API key);
  // an adapter whose secrets are named in its config (STP's privateKeyRef) takes none. The router checks it.
  credentialsRef: z.string().max(100),
  enabled: z.boolean(),
  methods: codes,
  payeeTypes: codes,
  priority: z.number().int().min(0).max(1_000_000),
  weight: z.number().int().min(0).max(1_000_000),
  merchantScope: z.enum(['all', 'list']),
  codeMap: z.record(z.string().max(10), z.string().max(32)),
};

const createRoute = z.strictObject({
  id: routeId,
  name: fields.name,
  adapter: fields.adapter,
  config: config.default({}),
  credentialsRef: fields.credentialsRef.default(''),
  enabled: fields.enabled.default(true),
  methods: fields.methods.default([]),
  payeeTypes: fields.payeeTypes.default([]),
  priority: fields.priority.default(100),
  weight: fields.weight.default(100),
  merchantScope: fields.merchantScope.default('all'),
  codeMap: fields.codeMap.default({}),
});

const updateRoute = z
  .strictObject({
    name: fields.name.optional(),
    adapter: fields.adapter.optional(),
    // Merged into the route's config; a null removes a key.
    config: config.optional(),
    credentialsRef: fields.credentialsRef.optional(),
    enabled: fields.enabled.optional(),
    methods: fields.methods.optional(),
    payeeTypes: fields.payeeTypes.optional(),
    priority: fields.priority.optional(),
    weight: fields.weight.optional(),
    merchantScope: fields.merchantScope.optional(),
    codeMap: fields.codeMap.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'nothing to change');

const merchantList = z.strictObject({ merchants: z.array(mchNo).max(1_000) });

/** JSON field → RouteSpec field. */
const SPEC_FIELD = {
  name: 'name',
  adapter: 'adapter',
  config: 'config_json',
  credentialsRef: 'credentials_ref',
  enabled: 'enabled',
  methods: 'methods',
  payeeTypes: 'payee_types',
  priority: 'priority',
  weight: 'weight',
  merchantScope: 'merchant_scope',
  codeMap: 'code_map',
} as const satisfies Record<keyof z.output<typeof updateRoute>, keyof RouteSpec>;

function toSpec(body: Partial<z.output<typeof createRoute>>): RouteSpec {
  return {
    id: body.id ?? '',
    name: body.name ?? '',
    adapter: body.adapter ?? '',
    config_json: body.config === undefined ? '' : JSON.stringify(body.config),
    credentials_ref: body.credentialsRef ?? '',
    enabled: body.enabled ?? false,
    methods: body.methods ?? [],
    payee_types: body.payeeTypes ?? [],
    priority: body.priority ?? 0,
    weight: body.weight ?? 0,
    merchant_scope: body.merchantScope ?? '',
    code_map: body.codeMap ?? {},
  };
}

const omitEmpty = (text: string) => (text === '' ? undefined : text);

/** A route as the admin API shows it. */
export function routeJson(route: Route__Output) {
  const spec = route.spec;
  const health = route.health;
  return {
    id: spec?.id,
    name: spec?.name,
    adapter: spec?.adapter,
    config: spec?.config_json ? (JSON.parse(spec.config_json) as Record<string, unknown>) : {},
    credentialsRef: spec?.credentials_ref,
    enabled: spec?.enabled,
    methods: spec?.methods,
    payeeTypes: spec?.payee_types,
    priority: spec?.priority,
    weight: spec?.weight,
    merchantScope: spec?.merchant_scope,
    codeMap: spec?.code_map,
    merchants: route.mch_nos,
    createdAt: omitEmpty(route.created_at),
    updatedAt: omitEmpty(route.updated_at),
    // Who created the route and who last changed it, and the approval (four eyes) of the last change.
    createdBy: omitEmpty(route.created_by),
    updatedBy: omitEmpty(route.updated_by),
    approvalId: omitEmpty(route.approval_id),
    health: health && {
      state: health.state,
      recentFailures: health.recent_failures,
      failuresTotal: Number(health.failures_total),
      successesTotal: Number(health.successes_total),
      skippedTotal: Number(health.skipped_total),
      openedAt: omitEmpty(health.opened_at),
      retryAt: omitEmpty(health.retry_at),
    },
  };
}

/** A refusal of the router's, or its absence, as the admin API answers it. */
class RouterAdminFailure extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

const HTTP_OF: Partial<Record<grpc.status, [number, string]>> = {
  [grpc.status.INVALID_ARGUMENT]: [400, 'bad_request'],
  [grpc.status.NOT_FOUND]: [404, 'not_found'],
  [grpc.status.ALREADY_EXISTS]: [409, 'conflict'],
  [grpc.status.UNAVAILABLE]: [503, 'unavailable'],
  [grpc.status.DEADLINE_EXCEEDED]: [503, 'unavailable'],
};

type UnaryMethod<Req, Res> = (request: Req, callback: grpc.requestCallback<Res>) => grpc.ClientUnaryCall;

/**
 * One RouteAdmin call. Unlike merchant calls (`call()` from @agentpay/proto, which maps to envelope
 * codes), the router's operator errors are gRPC statuses whose details are the message to show.
 */
async function invoke<Req, Res>(
  client: RouteAdminClient,
  method: UnaryMethod<Req, Res>,
  request: Req,
  options: { timeoutMs: number; metadata?: grpc.Metadata },
): Promise<Res> {
  try {
    return await callKeepingStatus(client, method, request, options);
  } catch (err) {
    const serviceError = err as Partial<grpc.ServiceError>;
    const [status, kind] = (serviceError.code !== undefined && HTTP_OF[serviceError.code]) || [
      500,
      'internal',
    ];
    throw new RouterAdminFailure(
      status,
      kind,
      status === 500 ? 'internal error' : (serviceError.details ?? ''),
    );
  }
}

/** A route change as checked, and as an approval stores it: the RouteAdmin method and its request. */
type RoutePayload =
  | { method: 'CreateRoute'; request: RouteSpec }
  | { method: 'UpdateRoute'; request: UpdateRouteRequest }
  | { method: 'SetRouteMerchants'; request: SetRouteMerchantsRequest }
  | { method: 'BindRouteMerchant' | 'UnbindRouteMerchant'; request: RouteMerchantRequest };

/**
 * Registers `/admin/routes...` on the admin server (behind its bearer token): list, get, create, change,
 * enable, disable, and the merchants a route serves.
 */
export function registerRoutesAdmin(
  app: FastifyInstance,
  deps: {
    client: RouteAdminClient;
    merchants: MerchantService;
    timeoutMs: number;
    /** Where the route changes' operations are added, for four eyes (approvals/admin-operation.ts). */
    operations?: OperationRegistry;
  },
): void {
  const { client, timeoutMs } = deps;
  // Generated clients overload each method; callKeepingStatus invokes the four-argument form.
  const rpc = <Req, Res = Route__Output>(
    method: unknown,
    request: Req,
    origin: CallOrigin | undefined,
    extra: { validateOnly?: boolean } = {},
  ) => invoke(client, method as UnaryMethod<Req, Res>, request, adminCall(origin, timeoutMs, extra));
  const send = (reply: FastifyReply, result: HttpResult) => reply.code(result.status).send(result.body);
  const route = async (reply: FastifyReply, pending: Promise<Route__Output>, status = 200) => {
    try {
      return reply.code(status).send(routeJson(await pending));
    } catch (err) {
      return fail(reply, err);
    }
  };
  const refusalOf = (err: unknown): HttpResult => {
    if (err instanceof RouterAdminFailure)
      return { status: err.status, body: { error: err.kind, message: err.message } };
    throw err;
  };
  const fail = (reply: FastifyReply, err: unknown) => send(reply, refusalOf(err));
  const refuse = (status: number, error: string, message: string) => ({
    ok: false as const,
    refusal: { status, body: { error, message } },
  });
  const bodyRefusal = (error: z.ZodError) => refuse(400, 'bad_request', schemaProblem(error));
  /** Index of the first merchant number with no merchant, or -1. */
  const firstUnknown = async (mchNos: readonly string[]) => {
    for (const [i, m] of mchNos.entries()) {
      try {
        await deps.merchants.get(m);
      } catch (err) {
        if (err instanceof MerchantAdminError && err.kind === 'not_found') return i;
        throw err;
      }
    }
    return -1;
  };

  type Id = { Params: { id: string } };
  type Binding = { Params: { id: string; mchNo: string } };

  /**
   * One route change as an operation (four eyes): the router checks it in full without saving it
   * (x-agentpay-validate-only) before an approval is made, and records who made it and the approval when it
   * is made. Each is safe to repeat for one approval: a change sets values, and a route created by this very
   * approval already exists with its id.
   */
  const change = (
    action: string,
    method: AdminOperation['method'],
    url: string,
    status: number,
    check: (
      request: FastifyRequest,
    ) => Promise<{ ok: false; refusal: HttpResult } | { ok: true; payload: RoutePayload; summary: string }>,
  ): AdminOperation<RoutePayload> => {
    const perform = (payload: RoutePayload, origin: CallOrigin | undefined, validateOnly = false) =>
      rpc<RoutePayload['request']>(client[payload.method], payload.request, origin, { validateOnly });
    const operation: AdminOperation<RoutePayload> = {
      action,
      method,
      url,
      async prepare(request) {
        const checked = await check(request);
        if (!checked.ok) return checked;
        try {
          await perform(checked.payload, originOfRequest(request), true);
        } catch (err) {
          return { ok: false, refusal: refusalOf(err) };
        }
        const id = checked.payload.request.id;
        return { ok: true, payload: checked.payload, summary: checked.summary, target: `route:${id}` };
      },
      async perform(payload, context) {
        try {
          return { status, body: routeJson(await perform(payload, context.origin)) };
        } catch (err) {
          const approvalId = context.origin?.approvalId;
          if (
            approvalId &&
            payload.method === 'CreateRoute' &&
            err instanceof RouterAdminFailure &&
            err.status === 409
          ) {
            const existing = await rpc<RouteKey>(
              client.GetRoute,
              { id: payload.request.id },
              context.origin,
            ).catch(() => undefined);
            if (existing?.approval_id === approvalId) return { status, body: routeJson(existing) };
          }
          return refusalOf(err);
        }
      },
    };
    deps.operations?.add(operation);
    return operation;
  };

  const create = change('route.create', 'POST', '/admin/routes', 201, async (request) => {
    const body = createRoute.safeParse(request.body);
    if (!body.success) return bodyRefusal(body.error);
    const spec = toSpec(body.data);
    return {
      ok: true,
      payload: { method: 'CreateRoute', request: spec },
      summary: `create route ${spec.id} (${spec.adapter}${spec.enabled ? '' : ', disabled'}; methods ${spec.methods?.join(', ') || 'none'}; payee types ${spec.payee_types?.join(', ') || 'none'}; ${spec.merchant_scope} merchants)`,
    };
  });

  const update = change('route.update', 'PATCH', '/admin/routes/:id', 200, async (request) => {
    const body = updateRoute.safeParse(request.body);
    if (!body.success) return bodyRefusal(body.error);
    const named = Object.keys(body.data) as (keyof typeof SPEC_FIELD)[];
    const id = (request.params as { id: string }).id;
    return {
      ok: true,
      payload: {
        method: 'UpdateRoute',
        request: { id, changes: toSpec(body.data), fields: named.map((f) => SPEC_FIELD[f]) },
      },
      summary: `change route ${id}: ${named.join(', ')}`,
    };
  });

  const setMerchants = change(
    'route.merchants.set',
    'PUT',
    '/admin/routes/:id/merchants',
    200,
    async (request) => {
      const body = merchantList.safeParse(request.body);
      if (!body.success) return bodyRefusal(body.error);
      const unknown = await firstUnknown(body.data.merchants);
      if (unknown >= 0) return refuse(400, 'bad_request', `merchants.${unknown}: no such merchant`);
      const id = (request.params as { id: string }).id;
      return {
        ok: true,
        payload: { method: 'SetRouteMerchants', request: { id, mch_nos: body.data.merchants } },
        summary: `route ${id} serves only ${body.data.merchants.join(', ') || 'no merchant'}`,
      };
    },
  );

  const bind = change(
    'route.merchant.bind',
    'POST',
    '/admin/routes/:id/merchants/:mchNo',
    200,
    async (request) => {
      const { id, mchNo: number } = request.params as Binding['Params'];
      if (!mchNo.safeParse(number).success)
        return refuse(400, 'bad_request', 'mchNo: letters, digits, _ and - only');
      if ((await firstUnknown([number])) === 0) return refuse(404, 'not_found', `no merchant ${number}`);
      return {
        ok: true,
        payload: { method: 'BindRouteMerchant', request: { id, mch_no: number } },
        summary: `route ${id} also serves merchant ${number}`,
      };
    },
  );

  // Unbinding does not ask whether the merchant still exists: a stale binding must always be removable.
  const unbind = change(
    'route.merchant.unbind',
    'DELETE',
    '/admin/routes/:id/merchants/:mchNo',
    200,
    async (request) => {
      const { id, mchNo: number } = request.params as Binding['Params'];
      return {
        ok: true,
        payload: { method: 'UnbindRouteMerchant', request: { id, mch_no: number } },
        summary: `route ${id} no longer serves merchant ${number}`,
      };
    },
  );

  app.get('/admin/routes', async (request, reply) => {
    try {
      const list = await rpc<object, RouteList__Output>(client.ListRoutes, {}, originOfRequest(request));
      return { routes: list.routes.map(routeJson) };
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.get<Id>('/admin/routes/:id', async (request, reply) =>
    route(reply, rpc<RouteKey>(client.GetRoute, { id: request.params.id }, originOfRequest(request))),
  );

  app.post('/admin/routes', async (request, reply) => send(reply, await runAtOnce(create, request)));
  app.patch<Id>('/admin/routes/:id', async (request, reply) => send(reply, await runAtOnce(update, request)));

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post<Id>(`/admin/routes/:id/${action}`, async (request, reply) =>
      route(
        reply,
        rpc<SetRouteEnabledRequest>(
          client.SetRouteEnabled,
          { id: request.params.id, enabled },
          originOfRequest(request),
        ),
      ),
    );
  }

  app.put<Id>('/admin/routes/:id/merchants', async (request, reply) =>
    send(reply, await runAtOnce(setMerchants, request)),
  );
  app.post<Binding>('/admin/routes/:id/merchants/:mchNo', async (request, reply) =>
    send(reply, await runAtOnce(bind, request)),
  );
  app.delete<Binding>('/admin/routes/:id/merchants/:mchNo', async (request, reply) =>
    send(reply, await runAtOnce(unbind, request)),
  );
}
