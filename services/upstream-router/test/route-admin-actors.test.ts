import { createDb } from '@agentpay/db';
import {
  CLIENT_OPTIONS,
  callKeepingStatus,
  loadProtos,
  originMetadata,
  type Route__Output,
  type RouteAdminClient,
  type RouteSpec,
} from '@agentpay/proto';
import { freePort } from '@agentpay/stack';
import { createTestDatabase, type TestDatabase } from '@agentpay/testing';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { type Router, main as routerMain } from '../src/main.js';
import { SANDBOX_CODE_MAP } from '../src/options/catalog.js';
import { startNoticeStream } from './notice-stream.js';

// The router records who created and changed a route from the call's metadata (x-agentpay-actor and
// x-agentpay-approval), and a validate-only call checks a change in full without saving it.

let database: TestDatabase;
let notices: Awaited<ReturnType<typeof startNoticeStream>>;
let router: Router;
let db: Kysely<Database>;
let client: RouteAdminClient;

const ana = { id: 'user:ana', label: 'ana@ops.example', roles: ['admin'] };
const bea = { id: 'user:bea', label: 'bea@ops.example', roles: ['admin'] };

function spec(id: string, overrides: Partial<RouteSpec> = {}): RouteSpec {
  return {
    id,
    name: `Route ${id}`,
    adapter: 'sandbox',
    config_json: JSON.stringify({ baseUrl: 'http://127.0.0.1:9', noticeSecretRef: 'SANDBOX_NOTICE_SECRET' }),
    credentials_ref: 'SANDBOX_API_KEY',
    enabled: true,
    methods: ['mex_virtual_account'],
    payee_types: [],
    priority: 50,
    weight: 10,
    merchant_scope: 'all',
    code_map: SANDBOX_CODE_MAP,
    ...overrides,
  };
}

const rpc = <Req>(method: unknown, request: Req, metadata?: grpc.Metadata) =>
  callKeepingStatus<Req, Route__Output>(
    client,
    method as (r: Req, cb: grpc.requestCallback<Route__Output>) => grpc.ClientUnaryCall,
    request,
    metadata ? { metadata } : {},
  );

beforeAll(async () => {
  database = await createTestDatabase('router_actors');
  notices = await startNoticeStream();
  const noticePort = await freePort();
  router = await routerMain({
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    GRPC_PORT: '0',
    NOTICE_PORT: String(noticePort),
    METRICS_PORT: '0',
    SANDBOX_URL: `http://127.0.0.1:${await freePort()}`,
    PUBLIC_NOTICE_URL: `http://127.0.0.1:${noticePort}`,
    ...notices.env,
    LOG_LEVEL: 'silent',
  });
  db = createDb<Database>(database.url);
  client = new (loadProtos().agentpay.router.v1.RouteAdmin)(
    `127.0.0.1:${router.grpcPort}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
});

afterAll(async () => {
  client?.close();
  await db?.destroy();
  await router?.stop();
  await notices?.stop();
  await database?.drop();
});

describe('who changes a route', () => {
  it('records the creator, the last changer and the approval from the call metadata', async () => {
    const created = await rpc(
      client.CreateRoute,
      spec('actors-a'),
      originMetadata({ actor: ana, approvalId: 'apr_1' }),
    );
    expect(created).toMatchObject({ created_by: ana.label, updated_by: ana.label, approval_id: 'apr_1' });

    const changed = await rpc(
      client.UpdateRoute,
      { id: 'actors-a', changes: spec('', { weight: 7 }), fields: ['weight'] },
      originMetadata({ actor: bea }),
    );
    // A change without an approval (a weight, at once) keeps the approval of the last change that had one.
    expect(changed).toMatchObject({ created_by: ana.label, updated_by: bea.label, approval_id: 'apr_1' });
    expect(changed.spec?.weight).toBe(7);

    const bound = await rpc(
      client.BindRouteMerchant,
      { id: 'actors-a', mch_no: 'M1' },
      originMetadata({ actor: ana, approvalId: 'apr_2' }),
    );
    expect(bound).toMatchObject({ updated_by: ana.label, approval_id: 'apr_2', mch_nos: ['M1'] });

    const row = await db
      .selectFrom('routes')
      .selectAll()
      .where('id', '=', 'actors-a')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ created_by: ana.label, updated_by: ana.label, approval_id: 'apr_2' });
  });

  it('names nobody for a caller without the metadata', async () => {
    const created = await rpc(client.CreateRoute, spec('actors-b'));
    expect(created).toMatchObject({ created_by: '', updated_by: '' });
  });
});

describe('validate only', () => {
  const check = (approvalId?: string) => originMetadata({ actor: ana, approvalId, validateOnly: true });

  it('answers a create as it would be and saves nothing', async () => {
    const would = await rpc(client.CreateRoute, spec('actors-dry'), check());
    expect(would.spec).toMatchObject({ id: 'actors-dry', weight: 10 });
    expect(
      await db.selectFrom('routes').select('id').where('id', '=', 'actors-dry').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses what the real call would refuse', async () => {
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (err: grpc.ServiceError) => err.code,
      );
    expect(await refusal(rpc(client.CreateRoute, spec('actors-a'), check()))).toBe(
      grpc.status.ALREADY_EXISTS,
    );
    expect(await refusal(rpc(client.CreateRoute, spec('actors-bad', { adapter: 'nope' }), check()))).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect(
      await refusal(
        rpc(client.UpdateRoute, { id: 'no-such', changes: spec(''), fields: ['weight'] }, check()),
      ),
    ).toBe(grpc.status.NOT_FOUND);
    expect(
      await refusal(
        rpc(
          client.UpdateRoute,
          { id: 'actors-a', changes: spec('', { merchant_scope: 'some' }), fields: ['merchant_scope'] },
          check(),
        ),
      ),
    ).toBe(grpc.status.INVALID_ARGUMENT);
  });

  it('answers a change and a new binding as they would be, and rolls both back', async () => {
    const before = await db
      .selectFrom('routes')
      .selectAll()
      .where('id', '=', 'actors-a')
      .executeTakeFirstOrThrow();
    const would = await rpc(
      client.UpdateRoute,
      { id: 'actors-a', changes: spec('', { weight: 99 }), fields: ['weight'] },
      check(),
    );
    expect(would.spec?.weight).toBe(99);
    const bound = await rpc(client.SetRouteMerchants, { id: 'actors-a', mch_nos: ['M2', 'M3'] }, check());
    expect(bound.mch_nos).toEqual(['M2', 'M3']);

    const after = await db
      .selectFrom('routes')
      .selectAll()
      .where('id', '=', 'actors-a')
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const merchants = await db
      .selectFrom('route_merchants')
      .select('mch_no')
      .where('route_id', '=', 'actors-a')
      .execute();
    expect(merchants.map((m) => m.mch_no)).toEqual(['M1']);
  });
});
