import type { FastifyInstance } from '@agentpay/http';
import { renderDocsPage } from './docs-page.js';
import { buildOpenApiDocument, type DocumentedRoute } from './openapi.document.js';

/**
 * Serves `GET /openapi.json` and `GET /docs` on the merchant API, from the routes the gateway registered.
 * Both are built on first request and kept: they change only with the code.
 */
export function registerOpenApiRoutes(app: FastifyInstance, routes: readonly DocumentedRoute[]): void {
  let built: { json: string; html: string } | undefined;
  const build = () => {
    if (!built) {
      const document = buildOpenApiDocument(routes);
      built = { json: `${JSON.stringify(document, null, 2)}\n`, html: renderDocsPage(document) };
    }
    return built;
  };

  app.get('/openapi.json', async (_request, reply) =>
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(build().json),
  );
  app.get('/docs', async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      // No script and nothing remote on the page: inline styles only.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
      .send(build().html),
  );
}
