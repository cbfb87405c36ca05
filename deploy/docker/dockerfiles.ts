/**
 * Writes services/<name>/Dockerfile from deploy/docker/Dockerfile.template, so the six images are built the
 * same way and differ only in the service name and the ports they expose.
 *
 *   npx tsx deploy/docker/dockerfiles.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLED_SERVICES, REPO_ROOT } from '../bundle.js';

/** The ports each image listens on: the defaults of the service's config schema (src/config.ts). */
export const IMAGE_PORTS: Record<(typeof BUNDLED_SERVICES)[number], number[]> = {
  gateway: [8080, 8081],
  payments: [50051, 9101],
  transfers: [50052, 9102],
  ledger: [50054, 9103],
  compliance: [50055, 9105],
  'upstream-router': [50053, 8091, 9104],
  notifier: [8082],
  'upstream-sandbox': [8090],
};

const TEMPLATE = join(REPO_ROOT, 'deploy/docker/Dockerfile.template');

/** The Dockerfile that services/<service>/Dockerfile must hold. */
export function renderDockerfile(service: (typeof BUNDLED_SERVICES)[number]): string {
  return readFileSync(TEMPLATE, 'utf8')
    .replaceAll('__SERVICE__', service)
    .replaceAll('__PORTS__', IMAGE_PORTS[service].join(' '));
}

export function dockerfilePath(service: string): string {
  return join(REPO_ROOT, 'services', service, 'Dockerfile');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const service of BUNDLED_SERVICES) {
    writeFileSync(dockerfilePath(service), renderDockerfile(service));
    process.stdout.write(`wrote services/${service}/Dockerfile\n`);
  }
}
