/**
 * The Dockerfiles, .dockerignore and docker-compose.yml, checked without a Docker engine: they follow the
 * template, build what the manifests run, and agree with each service's config schema.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUNDLED_SERVICES, IMAGE_NODE_OPTIONS, REPO_ROOT } from '../deploy/bundle.js';
import { dockerfilePath, IMAGE_PORTS, renderDockerfile } from '../deploy/docker/dockerfiles.js';
import { complianceEnv } from '../services/compliance/src/config.js';
import { gatewayEnv } from '../services/gateway/src/config.js';
import { ledgerEnv } from '../services/ledger/src/config.js';
import { notifierEnv } from '../services/notifier/src/config.js';
import { paymentsEnv } from '../services/payments/src/config.js';
import { transfersEnv } from '../services/transfers/src/config.js';
import { routerEnv } from '../services/upstream-router/src/config.js';
import { sandboxEnv } from '../services/upstream-sandbox/src/config.js';

const SCHEMAS = {
  gateway: gatewayEnv,
  payments: paymentsEnv,
  transfers: transfersEnv,
  ledger: ledgerEnv,
  compliance: complianceEnv,
  'upstream-router': routerEnv,
  notifier: notifierEnv,
  'upstream-sandbox': sandboxEnv,
} as const;
type ServiceName = keyof typeof SCHEMAS;

/** The object schema's defaults (inside the transform, so no production checks run). */
function defaults(service: ServiceName): Record<string, unknown> {
  return SCHEMAS[service].in.parse({}) as Record<string, unknown>;
}

function portDefaults(service: ServiceName): number[] {
  const values = defaults(service);
  return Object.keys(values)
    .filter((k) => k.endsWith('_PORT'))
    .map((k) => Number(values[k]))
    .sort((a, b) => a - b);
}

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions per stage: comments dropped, continuation lines joined. */
function stages(dockerfile: string): { name: string; instructions: Instruction[] }[] {
  const logical = dockerfile
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const result: { name: string; instructions: Instruction[] }[] = [];
  for (const line of logical) {
    const [op, ...rest] = line.split(/\s+/);
    const instruction = { op: op!.toUpperCase(), args: rest.join(' ') };
    if (instruction.op === 'FROM') {
      result.push({ name: /\bAS\s+(\S+)/i.exec(instruction.args)?.[1] ?? '', instructions: [] });
    }
    result.at(-1)?.instructions.push(instruction);
  }
  return result;
}

describe('the Dockerfiles', () => {
  it('exist for every service and are the template rendered for it', () => {
    expect([...BUNDLED_SERVICES].sort()).toEqual(Object.keys(SCHEMAS).sort());
    for (const service of BUNDLED_SERVICES) {
      expect(
        readFileSync(dockerfilePath(service), 'utf8'),
        `${service}: run npx tsx deploy/docker/dockerfiles.ts`,
      ).toBe(renderDockerfile(service));
    }
  });

  it.each(BUNDLED_SERVICES)(
    'build %s in three stages: prune, bundle, production-only runtime as a non-root user',
    (service) => {
      const all = stages(renderDockerfile(service));
      expect(all.map((s) => s.name)).toEqual(['prune', 'build', 'runtime']);
      const [prune, build, runtime] = all.map((s) => s.instructions) as [
        Instruction[],
        Instruction[],
        Instruction[],
      ];
      const packageName = (
        JSON.parse(readFileSync(join(REPO_ROOT, 'services', service, 'package.json'), 'utf8')) as {
          name: string;
        }
      ).name;
      const lockedTurbo = (
        JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/turbo/package.json'), 'utf8')) as {
          version: string;
        }
      ).version;

      expect(prune).toContainEqual({
        op: 'RUN',
        args: `npm install --global turbo@${lockedTurbo} --no-audit --no-fund`,
      });
      expect(prune).toContainEqual({ op: 'RUN', args: `turbo prune ${packageName} --docker --out-dir /out` });
      expect(build.some((i) => i.op === 'RUN' && i.args === `npm run bundle -- ${service}`)).toBe(true);

      const runs = runtime.filter((i) => i.op === 'RUN').map((i) => i.args);
      const install = runs.find((r) => r.includes('npm ci')) ?? '';
      expect(install).toContain(`npm ci --omit=dev --workspace=${packageName} `);
      // Before the install, or dev-only workspace links drag their dependencies into the image.
      expect(
        install.startsWith('npm pkg delete devDependencies --workspaces --include-workspace-root && '),
      ).toBe(true);
      expect(runtime.some((i) => /\btsx\b/.test(i.args))).toBe(false);
      expect(runtime).toContainEqual({
        op: 'COPY',
        args: `--from=build /src/services/${service}/dist/ ./services/${service}/dist/`,
      });
      // The manifests run `node dist/migrate.js` from the image's working directory.
      expect(runtime.filter((i) => i.op === 'WORKDIR').at(-1)?.args).toBe(`/app/services/${service}`);
      expect(runtime.at(-1)).toEqual({ op: 'CMD', args: '["node", "dist/main.js"]' });
      expect(runtime).toContainEqual({ op: 'COPY', args: 'proto/ ./proto/' });
      expect(runtime.find((i) => i.op === 'ENV')?.args).toContain('PROTO_DIR=/app/proto');
      expect(runtime.find((i) => i.op === 'ENV')?.args).toContain('NODE_ENV=production');
      // The services listen on 127.0.0.1 unless told otherwise: a container must be reachable from outside.
      expect(runtime.find((i) => i.op === 'ENV')?.args).toContain('HOST=0.0.0.0');
      // The bench runs the services with the images' options (bench/run.ts).
      expect(runtime.find((i) => i.op === 'ENV')?.args).toContain(`NODE_OPTIONS="${IMAGE_NODE_OPTIONS}"`);
      const user = runtime.filter((i) => i.op === 'USER').at(-1)?.args ?? '';
      expect(user, 'numeric, so runAsNonRoot can be verified').toMatch(/^[1-9]\d*:[1-9]\d*$/);

      const exposed = runtime
        .filter((i) => i.op === 'EXPOSE')
        .flatMap((i) => i.args.split(/\s+/).map(Number))
        .sort((a, b) => a - b);
      expect(exposed).toEqual(portDefaults(service));
      expect([...IMAGE_PORTS[service]].sort((a, b) => a - b)).toEqual(portDefaults(service));

      // Everything copied from the build context exists in the repository.
      for (const stage of [prune, build, runtime]) {
        for (const copy of stage.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
          const source = copy.args.split(/\s+/)[0]!;
          expect(existsSync(join(REPO_ROOT, source)), `COPY ${source}`).toBe(true);
        }
      }
    },
  );

  it('keep dependencies, build output and secrets out of the build context, and nothing the build needs', () => {
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignored).toEqual(
      expect.arrayContaining(['.git', '**/node_modules', '**/dist', '.agentpay', '.env', '*.pem']),
    );
    for (const needed of [
      'deploy',
      'deploy/bundle.ts',
      'proto',
      'packages',
      'services',
      'package-lock.json',
    ]) {
      expect(ignored, needed).not.toContain(needed);
    }
  });
});

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  command?: string[];
  read_only?: boolean;
  tmpfs?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const services = compose.services;

  it('runs Postgres, NATS with JetStream and every service, each built from its Dockerfile', () => {
    expect(Object.keys(services).sort()).toEqual(['nats', 'postgres', ...Object.keys(SCHEMAS)].sort());
    expect(services['nats']!.command).toContain('-js');
    expect(services['postgres']!.image).toMatch(/^postgres:/);
    for (const name of Object.keys(SCHEMAS)) {
      const s = services[name]!;
      expect(s.build).toEqual({ context: '.', dockerfile: `services/${name}/Dockerfile` });
      expect(existsSync(join(REPO_ROOT, s.build!.dockerfile))).toBe(true);
      expect(s.read_only, name).toBe(true);
      expect(s.tmpfs, name).toEqual(['/tmp']);
      expect(s.depends_on?.['postgres']?.condition, name).toBe('service_healthy');
    }
  });

  it("sets only variables each service's schema reads, and an environment the schema accepts", () => {
    for (const name of Object.keys(SCHEMAS) as ServiceName[]) {
      const env = services[name]!.environment ?? {};
      const keys = Object.keys(SCHEMAS[name].in.shape);
      expect(
        Object.keys(env).filter((k) => !keys.includes(k)),
        name,
      ).toEqual([]);
      expect(SCHEMAS[name].safeParse(env).error?.issues ?? [], name).toEqual([]);
      const ports = Object.keys(env).filter((k) => k.endsWith('_PORT'));
      expect(
        ports.map((k) => Number(env[k])).sort((a, b) => a - b),
        name,
      ).toEqual(portDefaults(name));
      const database = new URL(env['DATABASE_URL']!);
      expect(database.hostname).toBe('postgres');
      expect(database.pathname).toBe(new URL(String(defaults(name)['DATABASE_URL'])).pathname);
      if ('NATS_URL' in env) expect(services[name]!.depends_on?.['nats']?.condition).toBe('service_healthy');
      for (const key of keys.filter((k) => k.endsWith('_ADDR')))
        expect(env[key], `${name} ${key}`).toBeDefined();
    }
  });

  it("addresses every call at the callee's compose name and listening port", () => {
    for (const name of Object.keys(SCHEMAS) as ServiceName[]) {
      for (const [key, value] of Object.entries(services[name]!.environment ?? {})) {
        const match = /^(?:https?:\/\/)?([a-z0-9-]+):(\d+)$/.exec(value);
        if (!match || !(key.endsWith('_ADDR') || key.endsWith('_URL'))) continue;
        const [, host, port] = match;
        if (host === 'postgres' || host === 'nats') continue;
        const callee = services[host!];
        expect(callee, `${name} ${key}`).toBeDefined();
        const listening = Object.entries(callee!.environment ?? {})
          .filter(([k]) => k.endsWith('_PORT'))
          .map(([, v]) => v);
        expect(listening, `${name} ${key}=${value}`).toContain(port);
      }
    }
  });

  it('gives gateway and notifier one shared platform key file', () => {
    const files = ['gateway', 'notifier'].map((name) => {
      const s = services[name]!;
      const file = s.environment!['PLATFORM_PRIVATE_KEY_FILE']!;
      const volume = s.volumes?.find((v) => file.startsWith(`${v.split(':')[1]}/`));
      expect(volume, name).toBeDefined();
      return `${volume!.split(':')[0]}:${file}`;
    });
    expect(files[0]).toBe(files[1]);
    expect(Object.keys(compose.volumes)).toContain(files[0]!.split(':')[0]);
  });
});
