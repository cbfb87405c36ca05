import { createHttpServer, type FastifyInstance } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { describe, expect, it } from 'vitest';
import { createOperationRegistry } from './approvals/index.js';
import {
  type AuditLog,
  installAuthorization,
  type PeopleService,
  type Permission,
  permissionTable,
} from './identity/index.js';
import { type ModulesDeps, registerAdminModules, registerDashboardModules } from './modules.js';
import { ADMIN_PERMISSIONS, DASHBOARD_PERMISSIONS } from './permissions.js';

// The permission tables against the routes the modules really register, and the authorisation hook's
// deny by default, without a stack: registering a route calls none of its dependencies, so they are left
// empty here (a module that used one while registering would fail these tests, as it should).

const logger = createLogger({ service: 'gateway', level: 'silent' });

const deps = {
  logger,
  production: false,
  timeoutMs: 1_000,
  reconRunTimeoutMs: 1_000,
  timeZone: 'America/Mexico_City',
  consoleBaseUrl: 'http://127.0.0.1',
  publicBaseUrl: 'http://127.0.0.1',
  platformPublicKeyPem: '',
  consoleCookie: 'agentpay_console',
  dashboardCookie: 'agentpay_dashboard',
  operations: createOperationRegistry(),
} as unknown as ModulesDeps;

/** `METHOD url` of every route `register` adds (HEAD is GET's). */
async function routesOf(register: (app: FastifyInstance) => void): Promise<string[]> {
  const app = createHttpServer(logger);
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  register(app);
  await app.ready();
  await app.close();
  return routes.sort();
}

const keys = (table: readonly Permission[]) => table.map((p) => `${p.method} ${p.url}`).sort();

describe('the permission tables', () => {
  it('name every admin route the modules register, and no route that none registers', async () => {
    const routes = await routesOf((app) =>
      registerAdminModules(app, { ...deps, operations: createOperationRegistry() }),
    );
    expect(routes.length).toBeGreaterThan(60);
    expect(keys(ADMIN_PERMISSIONS)).toEqual(routes);
  });

  it('name every dashboard route the modules register, and no route that none registers', async () => {
    const routes = await routesOf((dash) => registerDashboardModules(dash, deps));
    expect(routes.length).toBeGreaterThan(25);
    expect(keys(DASHBOARD_PERMISSIONS)).toEqual(routes);
  });

  it('refuse a route written twice, whichever modules write it', () => {
    const read: Permission = {
      method: 'GET',
      url: '/admin/x',
      allow: ['owner'],
      action: 'x.read',
      changes: false,
    };
    const other: Permission = { ...read, url: '/admin/y', action: 'y.read' };
    expect(permissionTable([read], [other])).toEqual([read, other]);
    expect(() => permissionTable([read, other], [{ ...read, allow: ['auditor'] }])).toThrow(
      'permission table: GET /admin/x written twice',
    );
  });
});

describe('the authorisation hook', () => {
  it('refuses a route missing from the table to everyone, system:dev included, and lets a listed one through', async () => {
    const app = createHttpServer(logger);
    // A GET changes nothing and ADMIN_TOKEN needs no person: the hook reads neither people nor the audit log.
    installAuthorization(app, {
      people: {} as PeopleService,
      audit: {} as AuditLog,
      logger,
      kind: 'operator',
      permissions: permissionTable([
        { method: 'GET', url: '/admin/listed', allow: ['owner'], action: 'listed.read', changes: false },
      ]),
      cookieName: 'agentpay_console',
      adminToken: 'dev-token',
      production: false,
    });
    app.get('/admin/listed', async () => ({ ok: true }));
    app.get('/admin/unlisted', async () => ({ ok: true }));
    await app.ready();
    try {
      const as = (url: string, authorization?: string) =>
        app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
      expect((await as('/admin/listed', 'Bearer dev-token')).json()).toEqual({ ok: true });
      const unlisted = await as('/admin/unlisted', 'Bearer dev-token');
      expect(unlisted.statusCode).toBe(403);
      expect(unlisted.json()).toEqual({ error: 'forbidden', message: 'no permission covers this route' });
      expect((await as('/admin/listed')).statusCode).toBe(401);
      expect((await as('/admin/listed', 'Bearer not-the-token')).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
