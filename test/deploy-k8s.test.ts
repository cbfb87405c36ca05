/**
 * The Kubernetes manifests, rendered by kustomize for both overlays and checked without a cluster: schema
 * validity, the settings every Deployment needs, and agreement with each service's config schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import type { IIngress, INetworkPolicy, INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import type {
  IConfigMap,
  IContainer,
  IEnvVar,
  IPodSpec,
  IProbe,
  ISecret,
  IService,
} from 'kubernetes-models/v1';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { complianceEnv } from '../services/compliance/src/config.js';
import { gatewayEnv } from '../services/gateway/src/config.js';
import { ledgerEnv } from '../services/ledger/src/config.js';
import { notifierEnv } from '../services/notifier/src/config.js';
import { paymentsEnv } from '../services/payments/src/config.js';
import { transfersEnv } from '../services/transfers/src/config.js';
import { routerEnv } from '../services/upstream-router/src/config.js';
import { SECRET_REF } from '../services/upstream-router/src/routes/secrets.js';
import { sandboxEnv } from '../services/upstream-sandbox/src/config.js';
import {
  type K8sObject,
  named,
  OVERLAYS,
  type Overlay,
  ofKind,
  REPO_ROOT,
  renderOverlay,
} from './support/deploy-manifests.js';

/** What the tests need of a zod env schema: the plain object inside any transform. */
interface EnvObjectSchema {
  shape: Record<string, unknown>;
  parse(input: unknown): Record<string, unknown>;
}

/** Unwraps `z.object({...}).transform(...)` (a pipe: `.in`) down to the object schema. */
function objectSchema(schema: unknown): EnvObjectSchema {
  let current = schema as { shape?: unknown; in?: unknown };
  for (let depth = 0; depth < 5; depth++) {
    if (current.shape && typeof current.shape === 'object') return current as EnvObjectSchema;
    if (!current.in) break;
    current = current.in as { shape?: unknown; in?: unknown };
  }
  throw new Error('not an object schema (or a transform of one)');
}

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
const SERVICE_NAMES = Object.keys(SCHEMAS) as ServiceName[];

/** Which services each overlay runs: the sandbox is a development-only fake channel. */
const EXPECTED_SERVICES: Record<Overlay, ServiceName[]> = {
  dev: SERVICE_NAMES,
  prod: SERVICE_NAMES.filter((s) => s !== 'upstream-sandbox'),
};

/**
 * Variables read outside the zod schemas, by shared runtime code; each entry names the file that reads
 * it, and a test checks that it still does.
 */
const RUNTIME_ENV: Record<string, string> = {
  SHUTDOWN_TIMEOUT_MS: 'packages/config/src/run.ts',
};

/** The call graph of docs/architecture.md: who may open connections to whom, on which container port. */
const CALLS: Record<Overlay, string[]> = {
  prod: [
    'gateway->payments:50051',
    'gateway->transfers:50052',
    'gateway->upstream-router:50053',
    'gateway->notifier:8082',
    'gateway->ledger:50054',
    'payments->upstream-router:50053',
    'transfers->upstream-router:50053',
    'transfers->ledger:50054',
    // Reconciliation: statements, routes and returns of unmatched money.
    'ledger->upstream-router:50053',
    // Screening (docs/compliance.md): payees in each transfer create, STP deposits' payers; the desk.
    'gateway->compliance:50055',
    'transfers->compliance:50055',
    'upstream-router->compliance:50055',
  ],
  dev: [],
};
CALLS.dev = [
  ...CALLS.prod,
  'upstream-router->upstream-sandbox:8090',
  'upstream-sandbox->upstream-router:8091',
];

/** The Ingress controller's pods (ingress-nginx's own labels), as a NetworkPolicy peer. */
const INGRESS_CONTROLLER_PEER = JSON.stringify({
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
  podSelector: {
    matchLabels: { 'app.kubernetes.io/component': 'controller', 'app.kubernetes.io/name': 'ingress-nginx' },
  },
});

/** The variable holding the port each service serves GET /metrics on (docs/deploy.md, "Metrics and traces"). */
const METRICS_PORT_VARIABLE: Record<ServiceName, string | undefined> = {
  gateway: 'ADMIN_PORT',
  payments: 'METRICS_PORT',
  transfers: 'METRICS_PORT',
  ledger: 'METRICS_PORT',
  compliance: 'METRICS_PORT',
  'upstream-router': 'NOTICE_PORT',
  notifier: 'NOTIFIER_PORT',
  // A development-only fake channel: nothing to alert on.
  'upstream-sandbox': undefined,
};

const rendered = {} as Record<Overlay, K8sObject[]>;

beforeAll(() => {
  for (const overlay of OVERLAYS) rendered[overlay] = renderOverlay(overlay);
});

// ---- helpers over the rendered objects ----

function deployments(overlay: Overlay): IDeployment[] {
  return ofKind<IDeployment>(rendered[overlay], 'Deployment');
}

function podSpec(d: IDeployment): IPodSpec {
  return d.spec!.template.spec!;
}

/** The service's own container (named like the Deployment). */
function mainContainer(d: IDeployment): IContainer {
  const container = podSpec(d).containers.find((c) => c.name === d.metadata!.name);
  if (!container) throw new Error(`${d.metadata!.name}: no container named like the Deployment`);
  return container;
}

function podLabels(d: IDeployment): Record<string, string> {
  return (d.spec!.template.metadata!.labels ?? {}) as Record<string, string>;
}

function envValue(container: IContainer, name: string): string | undefined {
  return container.env?.find((e) => e.name === name)?.value;
}

function containerPort(container: IContainer, port: number | string): number | undefined {
  if (typeof port === 'number')
    return container.ports?.some((p) => p.containerPort === port) ? port : undefined;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** A label selector: matchLabels and `In` expressions (all the manifests use). */
interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

function selects(selector: Selector | undefined, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabel &&
    (selector?.matchExpressions ?? []).every((e) => {
      if (e.operator !== 'In') throw new Error(`selector operator ${e.operator} not understood by this test`);
      return (e.values ?? []).includes(labels[e.key] ?? '');
    })
  );
}

/**
 * The environment a container sees, as the kubelet builds it: ConfigMap and Secret references resolved
 * from the rendered objects (Secrets created out of band get a stand-in value), `$(VAR)` expanded from
 * variables defined earlier in the list.
 */
function resolveEnv(overlay: Overlay, container: IContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of container.env ?? []) {
    env[entry.name] = resolveOne(overlay, entry, env);
  }
  return env;
}

function resolveOne(overlay: Overlay, entry: IEnvVar, earlier: Record<string, string>): string {
  if (entry.value !== undefined) {
    return entry.value.replace(
      /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g,
      (whole, name: string) => earlier[name] ?? whole,
    );
  }
  const cm = entry.valueFrom?.configMapKeyRef;
  if (cm) {
    const map = ofKind<IConfigMap>(rendered[overlay], 'ConfigMap').find((c) => c.metadata!.name === cm.name);
    const value = map?.data?.[cm.key];
    if (value === undefined) throw new Error(`${entry.name}: ConfigMap ${cm.name} has no key ${cm.key}`);
    return value;
  }
  const secret = entry.valueFrom?.secretKeyRef;
  if (secret) {
    const found = ofKind<ISecret>(rendered[overlay], 'Secret').find((s) => s.metadata!.name === secret.name);
    if (found) {
      const data = found.data?.[secret.key];
      if (data === undefined)
        throw new Error(`${entry.name}: Secret ${secret.name} has no key ${secret.key}`);
      return Buffer.from(data, 'base64').toString('utf8');
    }
    return `out-of-band-${secret.name}-${secret.key}`;
  }
  throw new Error(`${entry.name}: unsupported env source`);
}

/** Variables that exist only to be spliced into another one with $(NAME) (the DATABASE_URL parts). */
function compositionOnly(container: IContainer): Set<string> {
  const referenced = new Set<string>();
  for (const e of container.env ?? []) {
    for (const m of e.value?.matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g) ?? []) referenced.add(m[1]!);
  }
  return new Set(
    (container.env ?? []).filter((e) => e.valueFrom && referenced.has(e.name)).map((e) => e.name),
  );
}

function serviceOf(d: IDeployment): ServiceName {
  const name = d.metadata!.name as ServiceName;
  if (!(name in SCHEMAS)) throw new Error(`Deployment ${name} is not an agentpay service`);
  return name;
}

function probesOf(container: IContainer): [string, IProbe | undefined][] {
  return [
    ['startupProbe', container.startupProbe],
    ['readinessProbe', container.readinessProbe],
    ['livenessProbe', container.livenessProbe],
  ];
}

/**
 * kustomize wraps long base64 Secret values over several lines; the API server's decoder (Go's base64)
 * skips line breaks, while the schema's `byte` format does not, so they are joined before validation.
 */
function unwrapBase64(o: K8sObject): K8sObject {
  const data = (o['data'] ?? {}) as Record<string, string>;
  return { ...o, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.replace(/\s+/g, '')])) };
}

/** The module of an object's kubernetes-models class: the core API's, or the Prometheus Operator's (CRDs). */
function modelModule(o: K8sObject): string {
  return o.apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${o.apiVersion}`
    : `kubernetes-models/${o.apiVersion}/${o.kind}`;
}

/** Imports the kubernetes-models class of an object (apiVersion/kind → module path). */
async function modelFor(o: K8sObject): Promise<new (data: unknown) => { validate(): void }> {
  const module = (await import(modelModule(o))) as Record<string, unknown>;
  const model = module[o.kind];
  if (typeof model !== 'function') throw new Error(`no model for ${o.apiVersion} ${o.kind}`);
  return model as new (
    data: unknown,
  ) => { validate(): void };
}

/**
 * Type-checks every object as an object literal of its kubernetes-models interface, which reports any
 * field the Kubernetes API does not define (the JSON schemas allow unknown fields, the API server drops them).
 */
function unknownFieldErrors(objects: K8sObject[]): string[] {
  const file = join(REPO_ROOT, 'test/__manifests_strict__.ts');
  const lines: string[] = [];
  const owners: string[] = [];
  objects.forEach((o, i) => {
    const type = `I${o.kind}`;
    lines.push(`import type { ${type} as T${i} } from '${modelModule(o)}';`);
    owners.push('');
  });
  objects.forEach((o, i) => {
    const body = JSON.stringify(o, null, 1).split('\n');
    body[0] = `export const o${i}: T${i} = ${body[0]}`;
    body[body.length - 1] += ';';
    for (const line of body) {
      lines.push(line);
      owners.push(`${o.kind} ${o.metadata.name}`);
    }
  });
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists.bind(host));
  host.getSourceFile = (name, version, onError, create) =>
    name === file
      ? ts.createSourceFile(name, source, version, true)
      : getSourceFile(name, version, onError, create);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => {
      const line = d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line;
      return `${owners[line] ?? '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
}

// ---- the tests ----

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  it('renders only objects that validate against the Kubernetes schemas', async () => {
    const objects = rendered[overlay];
    expect(objects.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const o of objects) {
      const Model = await modelFor(o);
      try {
        new Model(o.kind === 'Secret' ? unwrapBase64(o) : o).validate();
      } catch (err) {
        failures.push(`${o.kind} ${o.metadata.name}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(new Set(objects.map((o) => o.kind))).toEqual(
      new Set([
        'Namespace',
        'ConfigMap',
        'Deployment',
        'Service',
        'PodDisruptionBudget',
        'HorizontalPodAutoscaler',
        'NetworkPolicy',
        'Ingress',
        ...(overlay === 'dev' ? ['Secret'] : ['PodMonitor', 'PrometheusRule']),
      ]),
    );
  });

  it('sets no field that the Kubernetes API types do not define', () => {
    expect(unknownFieldErrors(rendered[overlay])).toEqual([]);
  });

  it('puts every object in the overlay namespace', () => {
    const namespace = overlay === 'prod' ? 'agentpay' : 'agentpay-dev';
    for (const o of rendered[overlay]) {
      if (o.kind === 'Namespace') expect(o.metadata.name).toBe(namespace);
      else expect(o.metadata.namespace, `${o.kind} ${o.metadata.name}`).toBe(namespace);
    }
  });

  it('runs one Deployment per service of the overlay, each from its own image', () => {
    const names = deployments(overlay).map((d) => d.metadata!.name);
    expect(names.sort()).toEqual([...EXPECTED_SERVICES[overlay]].sort());
    for (const d of deployments(overlay)) {
      for (const c of [...podSpec(d).containers, ...(podSpec(d).initContainers ?? [])]) {
        expect(c.image, `${d.metadata!.name}/${c.name}`).toMatch(
          new RegExp(`(^|/)agentpay/${d.metadata!.name}:[\\w.-]+$`),
        );
      }
    }
  });

  it('gives every service startup, readiness and liveness probes on a port its container declares', () => {
    for (const d of deployments(overlay)) {
      const c = mainContainer(d);
      for (const [kind, probe] of probesOf(c)) {
        const where = `${d.metadata!.name} ${kind}`;
        expect(probe, where).toBeDefined();
        const port = probe!.httpGet?.port ?? probe!.grpc?.port;
        expect(port, `${where} uses httpGet or grpc`).toBeDefined();
        expect(containerPort(c, port!), `${where} port ${port}`).toBeDefined();
        if (probe!.grpc) expect(probe!.grpc.port, where).toBe(Number(envValue(c, 'GRPC_PORT')));
      }
    }
  });

  it('gives every container requests and limits, the restricted security context and a writable /tmp only', () => {
    for (const d of deployments(overlay)) {
      const spec = podSpec(d);
      expect(spec.securityContext?.runAsNonRoot, d.metadata!.name).toBe(true);
      expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(spec.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
      expect(spec.automountServiceAccountToken).toBe(false);
      const tmp = spec.volumes?.find((v) => v.name === 'tmp');
      expect(tmp?.emptyDir, `${d.metadata!.name} has an emptyDir for /tmp`).toBeDefined();
      for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
        const where = `${d.metadata!.name}/${c.name}`;
        for (const field of ['cpu', 'memory']) {
          expect(c.resources?.requests?.[field], `${where} requests ${field}`).toBeDefined();
          expect(c.resources?.limits?.[field], `${where} limits ${field}`).toBeDefined();
        }
        expect(c.securityContext, where).toMatchObject({
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
        expect(c.securityContext?.capabilities?.add ?? [], where).toEqual([]);
        const writable = (c.volumeMounts ?? []).filter((m) => !m.readOnly);
        expect(
          writable.map((m) => [m.name, m.mountPath]),
          where,
        ).toEqual([['tmp', '/tmp']]);
      }
    }
  });

  it('rolls every Deployment out without losing capacity and gives it a PodDisruptionBudget and an autoscaler', () => {
    const pdbs = ofKind<IPodDisruptionBudget>(rendered[overlay], 'PodDisruptionBudget');
    const hpas = ofKind<IHorizontalPodAutoscaler>(rendered[overlay], 'HorizontalPodAutoscaler');
    for (const d of deployments(overlay)) {
      const name = d.metadata!.name!;
      expect(d.spec!.strategy?.rollingUpdate?.maxUnavailable, name).toBe(0);
      expect(d.spec!.strategy?.rollingUpdate?.maxSurge, name).toBeTruthy();
      // The autoscaler owns the replica count; a manifest count would reset it on every apply.
      expect(d.spec!.replicas, name).toBeUndefined();
      const covering = pdbs.filter((p) => selects(p.spec!.selector, podLabels(d)));
      expect(covering.length, `${name} PDBs`).toBe(1);
      expect(covering[0]!.spec!.maxUnavailable ?? covering[0]!.spec!.minAvailable).toBeDefined();
      const scalers = hpas.filter(
        (h) => h.spec!.scaleTargetRef.kind === 'Deployment' && h.spec!.scaleTargetRef.name === name,
      );
      expect(scalers.length, `${name} HPAs`).toBe(1);
      expect(scalers[0]!.spec!.minReplicas).toBeGreaterThanOrEqual(overlay === 'prod' ? 2 : 1);
      expect(scalers[0]!.spec!.maxReplicas).toBeGreaterThan(scalers[0]!.spec!.minReplicas!);
    }
  });

  it('lets the drain on SIGTERM finish inside the termination grace period', () => {
    for (const d of deployments(overlay)) {
      const c = mainContainer(d);
      const drainMs = Number(envValue(c, 'SHUTDOWN_TIMEOUT_MS') ?? 25_000);
      const preStop = c.lifecycle?.preStop?.exec?.command;
      const preStopS = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
      expect(podSpec(d).terminationGracePeriodSeconds, d.metadata!.name).toBeGreaterThan(
        preStopS + drainMs / 1000,
      );
    }
  });

  it('sets only environment variables that the service reads', () => {
    for (const [variable, file] of Object.entries(RUNTIME_ENV)) {
      expect(readFileSync(join(REPO_ROOT, file), 'utf8')).toContain(`process.env['${variable}']`);
    }
    for (const d of deployments(overlay)) {
      const service = serviceOf(d);
      const keys = new Set(Object.keys(objectSchema(SCHEMAS[service]).shape));
      for (const c of [...podSpec(d).containers, ...(podSpec(d).initContainers ?? [])]) {
        const helpers = compositionOnly(c);
        const unread = (c.env ?? [])
          .map((e) => e.name)
          .filter((name) => !keys.has(name) && !(name in RUNTIME_ENV) && !helpers.has(name))
          // The router resolves route credentials from variables of these families (routes/secrets.ts).
          .filter((name) => !(service === 'upstream-router' && SECRET_REF.test(name)));
        expect(unread, `${d.metadata!.name}/${c.name}`).toEqual([]);
        // envFrom hides the names from this check, so only the router's credentials Secret may use it.
        for (const from of c.envFrom ?? []) {
          expect(service).toBe('upstream-router');
          expect(from.secretRef).toEqual({ name: 'agentpay-upstream-credentials', optional: true });
        }
      }
    }
  });

  it("builds an environment that each service's config schema accepts in production mode", () => {
    for (const d of deployments(overlay)) {
      const service = serviceOf(d);
      const env = resolveEnv(overlay, mainContainer(d));
      expect(env['NODE_ENV'], service).toBe('production');
      const parsed = SCHEMAS[service].safeParse(env);
      expect(parsed.error?.issues ?? [], service).toEqual([]);
      // Every service address is set: a schema default (127.0.0.1) would never reach the callee in a pod.
      const addressKeys = Object.keys(objectSchema(SCHEMAS[service]).shape).filter((k) =>
        k.endsWith('_ADDR'),
      );
      for (const key of addressKeys) expect(env[key], `${service} ${key}`).toBeDefined();
      // And the listening interface: the default (127.0.0.1) would refuse every other pod, kubelet's probes included.
      expect(env['HOST'], `${service} HOST`).toBe('0.0.0.0');
    }
  });

  it('gives each migration init container the service image and the service’s database, as the migrate role', () => {
    for (const d of deployments(overlay)) {
      const service = serviceOf(d);
      const inits = podSpec(d).initContainers ?? [];
      expect(
        inits.map((c) => c.name),
        service,
      ).toEqual(['migrate']);
      const migrate = inits[0]!;
      expect(migrate.image).toBe(mainContainer(d).image);
      expect(migrate.command).toEqual(['node', 'dist/migrate.js']);
      const url = resolveEnv(overlay, migrate)['DATABASE_URL'];
      // Same server, database and TLS settings; only the role differs (docs/deploy.md, "Postgres roles").
      const asRole = (u: string) => {
        const parsed = new URL(u);
        parsed.username = 'role';
        parsed.password = 'secret';
        return parsed.href;
      };
      const serviceUrl = resolveEnv(overlay, mainContainer(d))['DATABASE_URL']!;
      expect(asRole(url!)).toBe(asRole(serviceUrl));
      const secretOf = (c: IContainer, variable: string) =>
        c.env?.find((e) => e.name === variable)?.valueFrom?.secretKeyRef;
      for (const variable of ['POSTGRES_USER', 'POSTGRES_PASSWORD']) {
        expect(secretOf(migrate, variable)?.name, `${service} migrate ${variable}`).toMatch(
          /^agentpay-postgres-migrate(-[a-z0-9]{10})?$/,
        );
        const own = secretOf(mainContainer(d), variable);
        expect(own?.name, `${service} ${variable}`).toMatch(/^agentpay-postgres(-[a-z0-9]{10})?$/);
        expect(own?.key, `${service} ${variable}`).toBe(
          `${service}-${variable === 'POSTGRES_USER' ? 'username' : 'password'}`,
        );
      }
      // The database the schema defaults to, on the server the dependencies ConfigMap names.
      const expected = new URL(String(objectSchema(SCHEMAS[service]).parse({})['DATABASE_URL'])).pathname;
      expect(new URL(url!).pathname).toBe(expected);
      const deps = named<IConfigMap>(rendered[overlay], 'ConfigMap', 'agentpay-dependencies').data!;
      expect(new URL(url!).hostname).toBe(deps['POSTGRES_HOST']);
    }
  });

  it("lines every port up with the service's config schema: env, containerPort, Service and schema default", () => {
    const services = ofKind<IService>(rendered[overlay], 'Service');
    for (const d of deployments(overlay)) {
      const service = serviceOf(d);
      const c = mainContainer(d);
      const defaults = objectSchema(SCHEMAS[service]).parse({});
      const portKeys = Object.keys(defaults).filter((k) => k.endsWith('_PORT'));
      expect(portKeys.length, service).toBeGreaterThan(0);
      const declared = (c.ports ?? []).map((p) => p.containerPort).sort();
      expect(declared, `${service} declares one containerPort per port variable`).toEqual(
        portKeys.map((k) => Number(defaults[k])).sort(),
      );
      for (const key of portKeys) {
        expect(Number(envValue(c, key)), `${service} ${key}`).toBe(defaults[key]);
      }
      const own = services.filter((s) => selects({ matchLabels: s.spec!.selector }, podLabels(d)));
      expect(own.length, `${service} Services`).toBeGreaterThan(0);
      const exposed = own.flatMap((s) => s.spec!.ports!.map((p) => containerPort(c, p.targetPort ?? p.port)));
      expect(exposed, `${service} Service targetPorts`).not.toContain(undefined);
      expect([...new Set(exposed)].sort(), `${service} every port is behind a Service`).toEqual(declared);
    }
  });

  it('addresses every internal call at a Service port that leads to the callee’s listening port', () => {
    const services = ofKind<IService>(rendered[overlay], 'Service');
    for (const d of deployments(overlay)) {
      const env = resolveEnv(overlay, mainContainer(d));
      for (const [key, value] of Object.entries(env)) {
        // `dns:///name:port` is how round-robin gRPC clients name a headless Service.
        const match = /^(?:https?:\/\/|dns:\/\/\/)?([a-z0-9-]+):(\d+)$/.exec(value);
        if (!match || !(key.endsWith('_ADDR') || key.endsWith('_URL'))) continue;
        const [, host, port] = match;
        const where = `${d.metadata!.name} ${key}=${value}`;
        const target = services.find((s) => s.metadata!.name === host);
        expect(target, where).toBeDefined();
        const servicePort = target!.spec!.ports!.find((p) => p.port === Number(port));
        expect(servicePort, where).toBeDefined();
        const callee = deployments(overlay).find((x) =>
          selects({ matchLabels: target!.spec!.selector }, podLabels(x)),
        );
        expect(callee, where).toBeDefined();
        expect(
          containerPort(mainContainer(callee!), servicePort!.targetPort ?? servicePort!.port),
          where,
        ).toBe(Number(port));
      }
    }
  });

  it('mounts the platform key from its Secret wherever a service signs, and reads the admin token from a Secret', () => {
    const signers = deployments(overlay).filter(
      (d) => 'PLATFORM_PRIVATE_KEY_FILE' in objectSchema(SCHEMAS[serviceOf(d)]).shape,
    );
    expect(signers.map((d) => d.metadata!.name).sort()).toEqual(['gateway', 'notifier']);
    for (const d of signers) {
      const c = mainContainer(d);
      expect(envValue(c, 'PLATFORM_PRIVATE_KEY'), 'never inline').toBeUndefined();
      const file = envValue(c, 'PLATFORM_PRIVATE_KEY_FILE')!;
      const mount = c.volumeMounts?.find((m) => file.startsWith(`${m.mountPath}/`));
      expect(mount?.readOnly, d.metadata!.name).toBe(true);
      const volume = podSpec(d).volumes?.find((v) => v.name === mount!.name);
      expect(volume?.secret?.secretName).toMatch(/^agentpay-platform-key(-[a-z0-9]{10})?$/);
      expect(volume?.secret?.items?.map((i) => `${mount!.mountPath}/${i.path}`)).toContain(file);
      // Operators' ADMIN_TOKEN at the gateway; the notifier answers only the gateway's internal token.
      const [name, secret] =
        d.metadata!.name === 'gateway'
          ? ['ADMIN_TOKEN', /^agentpay-admin-token(-[a-z0-9]{10})?$/]
          : ['NOTIFIER_ADMIN_TOKEN', /^agentpay-notifier-admin-token(-[a-z0-9]{10})?$/];
      expect(c.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef?.name, d.metadata!.name).toMatch(
        secret,
      );
    }
  });

  it('names Postgres and NATS in the agentpay-dependencies ConfigMap only, and aims the egress rules at them', () => {
    const deps = named<IConfigMap>(rendered[overlay], 'ConfigMap', 'agentpay-dependencies').data!;
    const natsHost = new URL(deps['NATS_URL']!).hostname;
    for (const needle of [deps['POSTGRES_HOST']!, natsHost]) {
      const holders = rendered[overlay].filter((o) => JSON.stringify(o).includes(needle));
      expect(
        holders.map((o) => `${o.kind}/${o.metadata.name}`),
        needle,
      ).toEqual([
        `ConfigMap/${named(rendered[overlay], 'ConfigMap', 'agentpay-dependencies').metadata.name}`,
      ]);
    }
    const policies = ofKind<INetworkPolicy>(rendered[overlay], 'NetworkPolicy');
    const cidr = (name: string) =>
      policies.find((p) => p.metadata!.name === name)!.spec!.egress![0]!.to![0]!.ipBlock!.cidr;
    expect(cidr('allow-postgres-egress')).toBe(deps['POSTGRES_CIDR']);
    expect(cidr('allow-nats-egress')).toBe(deps['NATS_CIDR']);
    for (const d of deployments(overlay)) {
      const env = resolveEnv(overlay, mainContainer(d));
      expect(podLabels(d)['agentpay.io/postgres-client'] === 'true', d.metadata!.name).toBe(
        env['DATABASE_URL'] !== undefined,
      );
      expect(podLabels(d)['agentpay.io/nats-client'] === 'true', d.metadata!.name).toBe(
        env['NATS_URL'] !== undefined,
      );
      if (env['NATS_URL']) expect(env['NATS_URL']).toBe(deps['NATS_URL']);
    }
  });

  it('allows pod-to-pod traffic only along the call graph, behind a default deny', () => {
    const policies = ofKind<INetworkPolicy>(rendered[overlay], 'NetworkPolicy');
    const denyAll = policies.find((p) => p.metadata!.name === 'default-deny-all')!;
    expect(denyAll.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    const pods = deployments(overlay).map((d) => ({
      name: d.metadata!.name!,
      labels: podLabels(d),
      ports: (mainContainer(d).ports ?? []).map((p) => p.containerPort),
    }));
    const peerAllows = (peers: INetworkPolicyPeer[] | undefined, labels: Record<string, string>) =>
      peers === undefined ||
      peers.some(
        (peer) =>
          !peer.namespaceSelector && !peer.ipBlock && peer.podSelector && selects(peer.podSelector, labels),
      );
    const portAllows = (ports: { port?: number | string }[] | undefined, port: number) =>
      ports === undefined || ports.some((p) => p.port === port);
    const allowed: string[] = [];
    for (const from of pods) {
      for (const to of pods) {
        for (const port of to.ports) {
          const egress = policies.some(
            (p) =>
              p.spec!.policyTypes?.includes('Egress') &&
              selects(p.spec!.podSelector, from.labels) &&
              (p.spec!.egress ?? []).some(
                (rule) => peerAllows(rule.to, to.labels) && portAllows(rule.ports, port),
              ),
          );
          const ingress = policies.some(
            (p) =>
              p.spec!.policyTypes?.includes('Ingress') &&
              selects(p.spec!.podSelector, to.labels) &&
              (p.spec!.ingress ?? []).some(
                (rule) => peerAllows(rule.from, from.labels) && portAllows(rule.ports, port),
              ),
          );
          if (egress && ingress) allowed.push(`${from.name}->${to.name}:${port}`);
        }
      }
    }
    expect(allowed.sort()).toEqual([...CALLS[overlay]].sort());
  });

  it("opens only the gateway's merchant port to the outside, its admin port to operators and metrics ports to monitoring", () => {
    const policies = ofKind<INetworkPolicy>(rendered[overlay], 'NetworkPolicy');
    const fromOutside = policies.flatMap((p) =>
      (p.spec!.ingress ?? []).flatMap((rule) =>
        (rule.from ?? []).some((peer) => peer.namespaceSelector || peer.ipBlock)
          ? [
              `${JSON.stringify(p.spec!.podSelector?.matchLabels)}:${rule.ports?.map((x) => x.port).join(',')}:${JSON.stringify(rule.from)}`,
            ]
          : [],
      ),
    );
    expect(fromOutside.sort()).toEqual(
      [
        `{"app.kubernetes.io/name":"gateway"}:8080:[{"namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"ingress-nginx"}}}]`,
        `{"app.kubernetes.io/name":"gateway"}:8081:[{"namespaceSelector":{"matchLabels":{"agentpay.io/operators":"true"}}}]`,
        `{"app.kubernetes.io/name":"upstream-router"}:8091:[${INGRESS_CONTROLLER_PEER}]`,
        `{"app.kubernetes.io/part-of":"agentpay"}:8081,8082,8091,9101,9102,9103,9105:[{"namespaceSelector":{"matchLabels":{"agentpay.io/monitoring":"true"}}}]`,
      ].sort(),
    );
    const ingresses = ofKind<IIngress>(rendered[overlay], 'Ingress');
    const backends = ingresses.flatMap((i) =>
      (i.spec!.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend.service)),
    );
    expect(backends).toEqual([
      { name: 'gateway', port: { name: 'http' } },
      { name: 'upstream-router', port: { name: 'notices' } },
    ]);
    const gatewayService = named<IService>(rendered[overlay], 'Service', 'gateway');
    expect(gatewayService.spec!.ports!.map((p) => p.port)).toEqual([8080]);
    for (const s of ofKind<IService>(rendered[overlay], 'Service')) {
      expect(s.spec!.type ?? 'ClusterIP', s.metadata!.name).toBe('ClusterIP');
    }
  });

  it('lets only the router and the notifier reach the internet, on HTTPS (and HTTP for callbacks)', () => {
    const policies = ofKind<INetworkPolicy>(rendered[overlay], 'NetworkPolicy');
    const internet = policies.flatMap((p) =>
      (p.spec!.egress ?? [])
        .filter((rule) => rule.to?.some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0'))
        .map(
          (rule) =>
            `${p.spec!.podSelector?.matchLabels?.['app.kubernetes.io/name']}:${rule.ports?.map((x) => x.port).join(',')}`,
        ),
    );
    expect(internet.sort()).toEqual(['notifier:80,443', 'upstream-router:443']);
    for (const p of policies) {
      for (const rule of p.spec!.egress ?? []) {
        for (const peer of rule.to ?? []) {
          if (peer.ipBlock?.cidr === '0.0.0.0/0') {
            expect(peer.ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16']));
          }
        }
      }
    }
  });
});

/** Every Secret production expects, created out of band (docs/deploy.md, "Secrets"). */
const PROD_SECRETS = [
  'agentpay-admin-token',
  'agentpay-api-tls',
  'agentpay-cashier-secret',
  'agentpay-notices-tls',
  'agentpay-notifier-admin-token',
  'agentpay-people-secret',
  'agentpay-platform-key',
  'agentpay-postgres',
  'agentpay-postgres-ca',
  'agentpay-postgres-migrate',
  'agentpay-upstream-credentials',
];

/** The certificates the Ingresses serve. */
function tlsSecrets(overlay: Overlay): string[] {
  return ofKind<IIngress>(rendered[overlay], 'Ingress').flatMap((i) =>
    (i.spec!.tls ?? []).map((t) => t.secretName!),
  );
}

describe('the overlays', () => {
  it('generate development Secrets in dev only, and expect the documented ones in prod', () => {
    const referenced = (overlay: Overlay) =>
      new Set(
        deployments(overlay).flatMap((d) =>
          [...podSpec(d).containers, ...(podSpec(d).initContainers ?? [])].flatMap((c) => [
            ...(c.env ?? []).flatMap((e) =>
              e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [],
            ),
            ...(podSpec(d).volumes ?? []).flatMap((v) => (v.secret ? [v.secret.secretName!] : [])),
          ]),
        ),
      );
    const devSecrets = new Set(ofKind<ISecret>(rendered.dev, 'Secret').map((s) => s.metadata!.name));
    for (const name of referenced('dev')) expect(devSecrets, name).toContain(name);
    expect(ofKind(rendered.prod, 'Secret')).toEqual([]);
    const docs = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
    const kustomization = readFileSync(
      join(REPO_ROOT, 'deploy/k8s/overlays/prod/kustomization.yaml'),
      'utf8',
    );
    const prodSecrets = [...referenced('prod'), ...tlsSecrets('prod'), 'agentpay-upstream-credentials'];
    expect(prodSecrets.sort()).toEqual(PROD_SECRETS);
    for (const name of prodSecrets) {
      expect(docs, `docs/deploy.md explains ${name}`).toContain(name);
      expect(kustomization, `the prod kustomization lists ${name}`).toContain(name);
    }
  });

  it('document every referenced Secret in an example that no kustomization applies', async () => {
    const file = join(REPO_ROOT, 'deploy/k8s/base/secrets.example.yaml');
    const examples = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as K8sObject);
    for (const o of examples) {
      const Model = await modelFor(o);
      expect(() => new Model(o).validate(), o.metadata.name).not.toThrow();
    }
    expect(examples.map((o) => o.metadata.name).sort()).toEqual(PROD_SECRETS);
    for (const name of tlsSecrets('prod')) {
      const example = examples.find((o) => o.metadata.name === name)!;
      expect(example['type'], name).toBe('kubernetes.io/tls');
      expect(Object.keys(example['stringData'] as object).sort(), name).toEqual(['tls.crt', 'tls.key']);
    }
    // Every key a prod Deployment reads is in the example, under the same Secret.
    const exampleKeys = new Set(
      examples.flatMap((o) =>
        Object.keys((o['stringData'] ?? {}) as object).map((k) => `${o.metadata.name}/${k}`),
      ),
    );
    for (const d of deployments('prod')) {
      const spec = podSpec(d);
      const refs = [
        ...[...spec.containers, ...(spec.initContainers ?? [])].flatMap((c) =>
          (c.env ?? []).flatMap((e) => {
            const ref = e.valueFrom?.secretKeyRef;
            return ref ? [`${ref.name}/${ref.key}`] : [];
          }),
        ),
        ...(spec.volumes ?? []).flatMap((v) =>
          (v.secret?.items ?? []).map((i) => `${v.secret!.secretName}/${i.key}`),
        ),
      ];
      for (const ref of refs) expect(exampleKeys, `${d.metadata!.name} reads ${ref}`).toContain(ref);
    }
    for (const dir of ['base', 'overlays/dev', 'overlays/prod']) {
      expect(readFileSync(join(REPO_ROOT, 'deploy/k8s', dir, 'kustomization.yaml'), 'utf8')).not.toContain(
        'secrets.example.yaml',
      );
    }
  });

  it('pins production images to a registry and tag', () => {
    for (const d of deployments('prod')) {
      for (const c of [...podSpec(d).containers, ...(podSpec(d).initContainers ?? [])]) {
        expect(c.image).toMatch(
          /^[a-z0-9.-]+\.[a-z]+\/agentpay\/[a-z-]+(:(?!latest$)[\w.-]+|@sha256:[a-f0-9]{64})$/,
        );
      }
    }
  });
});

// ---- going live: the webhooks in, the alarms wired, Postgres run as a service ----

/** An IPv4 CIDR as [first address, size]; throws on anything else. */
function ipv4Range(cidr: string): [number, number] {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!match) throw new Error(`${cidr}: not an IPv4 CIDR`);
  const bits = Number(match[5]);
  const address = match.slice(1, 5).reduce((acc, octet) => acc * 256 + Number(octet), 0);
  const size = 2 ** (32 - bits);
  return [address - (address % size), size];
}

describe.each(OVERLAYS)('going live, the %s overlay', (overlay) => {
  const deps = () => named<IConfigMap>(rendered[overlay], 'ConfigMap', 'agentpay-dependencies').data!;
  const router = () => deployments(overlay).find((d) => d.metadata!.name === 'upstream-router')!;

  it("routes STP's two notice paths, and nothing else, from their own host to the router's notice port", () => {
    const ingress = named<IIngress>(rendered[overlay], 'Ingress', 'upstream-router-notices');
    const gatewayHosts = named<IIngress>(rendered[overlay], 'Ingress', 'gateway').spec!.rules!.map(
      (r) => r.host,
    );
    const rules = ingress.spec!.rules!;
    expect(rules).toHaveLength(1);
    // Its own host: ingress-nginx's use-regex applies to every path of a host.
    expect(gatewayHosts).not.toContain(rules[0]!.host);
    expect(rules[0]!.host).not.toMatch(/\.invalid$/);
    expect(ingress.metadata!.annotations?.['nginx.ingress.kubernetes.io/use-regex']).toBe('true');
    const paths = rules[0]!.http!.paths;
    // ingress-nginx turns a regex path into `location ~* "^<path>"`.
    const routed = (url: string) => paths.some((p) => new RegExp(`^${p.path}`, 'i').test(url));
    for (const url of ['/notices/stp-main/abono', '/notices/stp-main/cambio-estado', '/notices/stp2/abono']) {
      expect(routed(url), url).toBe(true);
    }
    for (const url of [
      '/metrics',
      '/healthz',
      '/notices/stp-main',
      '/notices/stp-main/abono/x',
      '/notices/stp-main/other',
      '/notices/../metrics/abono',
      '/x/notices/stp-main/abono',
    ]) {
      expect(routed(url), url).toBe(false);
    }
    // To the router's Service port that leads to NOTICE_PORT.
    const service = named<IService>(rendered[overlay], 'Service', 'upstream-router');
    const c = mainContainer(router());
    for (const p of paths) {
      expect(p.backend.service?.name).toBe('upstream-router');
      const port = service.spec!.ports!.find((x) => x.name === p.backend.service!.port!.name)!;
      expect(containerPort(c, port.targetPort ?? port.port)).toBe(Number(envValue(c, 'NOTICE_PORT')));
    }
    if (overlay === 'prod') {
      expect(ingress.spec!.tls).toEqual([{ hosts: [rules[0]!.host], secretName: 'agentpay-notices-tls' }]);
    }
  });

  it("trusts X-Forwarded-For on the notice port from the Ingress controller's addresses only, and admits only the controller there", () => {
    const env = resolveEnv(overlay, mainContainer(router()));
    const trusted = routerEnv.parse(env).TRUSTED_PROXIES;
    expect(trusted).toEqual([deps()['INGRESS_CONTROLLER_CIDR']]);
    for (const cidr of trusted) {
      const [, size] = ipv4Range(cidr);
      // Never "anyone": a forged header from the internet would name the caller STP's allow-list checks.
      expect(size, cidr).toBeLessThanOrEqual(2 ** 24);
    }
    // Who may open a connection to 8091 from outside the call graph: the controller's pods, and Prometheus.
    const policies = ofKind<INetworkPolicy>(rendered[overlay], 'NetworkPolicy');
    const routerLabels = podLabels(router());
    const peers = policies
      .filter((p) => p.spec!.policyTypes?.includes('Ingress') && selects(p.spec!.podSelector, routerLabels))
      .flatMap((p) => (p.spec!.ingress ?? []).filter((r) => r.ports?.some((x) => x.port === 8091)))
      .flatMap((r) => r.from ?? [{}])
      .filter((peer) => peer.namespaceSelector || peer.ipBlock || !peer.podSelector);
    expect(peers.map((peer) => JSON.stringify(peer)).sort()).toEqual(
      [
        INGRESS_CONTROLLER_PEER,
        '{"namespaceSelector":{"matchLabels":{"agentpay.io/monitoring":"true"}}}',
      ].sort(),
    );
    if (overlay === 'prod') {
      // Not the whole pod network: Prometheus reaches 8091 too and must not be able to name a caller.
      expect(ipv4Range(trusted[0]!)[1]).toBeLessThan(2 ** 16);
    }
  });

  it('lets monitoring scrape every port a service serves /metrics on, and no other', () => {
    const served = new Set<number>();
    for (const d of deployments(overlay)) {
      const variable = METRICS_PORT_VARIABLE[serviceOf(d)];
      if (!variable) continue;
      const port = Number(envValue(mainContainer(d), variable));
      expect(containerPort(mainContainer(d), port), `${d.metadata!.name} ${variable}`).toBe(port);
      served.add(port);
    }
    const scrape = named<INetworkPolicy>(rendered[overlay], 'NetworkPolicy', 'allow-metrics-scrape');
    expect(scrape.spec!.podSelector).toEqual({ matchLabels: { 'app.kubernetes.io/part-of': 'agentpay' } });
    const allowed = scrape.spec!.ingress!.flatMap((r) => (r.ports ?? []).map((p) => Number(p.port)));
    expect(allowed.sort()).toEqual([...served].sort());
    for (const d of deployments(overlay)) {
      expect(podLabels(d)['app.kubernetes.io/part-of'], d.metadata!.name).toBe('agentpay');
    }
  });

  it('spreads every service over zones, then nodes', () => {
    for (const d of deployments(overlay)) {
      const own = (podSpec(d).topologySpreadConstraints ?? []).filter((t) =>
        selects(t.labelSelector as Selector, podLabels(d)),
      );
      expect(own.map((t) => t.topologyKey).sort(), d.metadata!.name).toEqual([
        'kubernetes.io/hostname',
        'topology.kubernetes.io/zone',
      ]);
      for (const t of own) {
        expect(t.labelSelector?.matchLabels?.['app.kubernetes.io/name'], d.metadata!.name).toBe(
          d.metadata!.name,
        );
      }
    }
  });

  it('runs each service as its own Postgres role, and migrates as another', () => {
    const users = new Set<string>();
    for (const d of deployments(overlay)) {
      const service = serviceOf(d);
      const ref = mainContainer(d).env?.find((e) => e.name === 'POSTGRES_USER')?.valueFrom?.secretKeyRef;
      users.add(`${ref?.name}/${ref?.key}`);
      const migrate = podSpec(d).initContainers![0]!;
      const migrateRef = migrate.env?.find((e) => e.name === 'POSTGRES_USER')?.valueFrom?.secretKeyRef;
      expect(migrateRef?.key, service).toBe('username');
    }
    expect(users.size).toBe(deployments(overlay).length);
  });
});

describe('going live, production', () => {
  const prod = () => rendered.prod;
  const deps = () => named<IConfigMap>(prod(), 'ConfigMap', 'agentpay-dependencies').data!;

  it("verifies the Postgres server's certificate against the private CA mounted in every pod that connects", () => {
    const params = new URLSearchParams(deps()['POSTGRES_URL_PARAMS']);
    expect(params.get('sslmode')).toBe('verify-full');
    const rootCert = params.get('sslrootcert')!;
    expect(rootCert).toMatch(/^\/var\/run\/secrets\/.+\.crt$/);
    for (const d of deployments('prod')) {
      const spec = podSpec(d);
      for (const c of [spec.containers[0]!, ...(spec.initContainers ?? [])]) {
        const where = `${d.metadata!.name}/${c.name}`;
        expect(new URL(resolveEnv('prod', c)['DATABASE_URL']!).searchParams.get('sslrootcert'), where).toBe(
          rootCert,
        );
        const mount = c.volumeMounts?.find((m) => rootCert.startsWith(`${m.mountPath}/`));
        expect(mount?.readOnly, where).toBe(true);
        const volume = spec.volumes?.find((v) => v.name === mount!.name);
        expect(volume?.secret?.secretName, where).toBe('agentpay-postgres-ca');
        expect(
          volume?.secret?.items?.map((i) => `${mount!.mountPath}/${i.path}`),
          where,
        ).toContain(rootCert);
      }
    }
  });

  it('lets the services reach Postgres at its subnet, not at one address a failover moves', () => {
    const [, size] = ipv4Range(deps()['POSTGRES_CIDR']!);
    expect(size).toBeGreaterThan(1);
    // A subnet, not the whole private range.
    expect(size).toBeLessThanOrEqual(2 ** 12);
  });

  it('fits every Postgres connection the services can open, at the autoscalers’ maximum and during a rollout, in max_connections', () => {
    const source = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
    const defaultPool = Number(
      /max: opts\.poolSize \?\? (\d+)/.exec(source('packages/db/src/database.ts'))![1],
    );
    const migratePool = Number(/poolSize: (\d+), logger/.exec(source('packages/db/src/migrate.ts'))![1]);
    const hpas = ofKind<IHorizontalPodAutoscaler>(prod(), 'HorizontalPodAutoscaler');
    const lines: string[] = [];
    let total = 0;
    for (const d of deployments('prod')) {
      const service = serviceOf(d);
      const main = source(`services/${service}/src/main.ts`);
      // The pool: the service's setting, else a literal in main.ts, else createDb's default.
      const env = objectSchema(SCHEMAS[service]).parse(resolveEnv('prod', mainContainer(d)));
      const literal = /svc\.database<Database>\(migrations, \{ poolSize: (\d+) \}\)/.exec(main);
      const pool =
        env['DATABASE_POOL_SIZE'] !== undefined
          ? Number(env['DATABASE_POOL_SIZE'])
          : literal
            ? Number(literal[1])
            : defaultPool;
      if (!main.includes('svc.database<Database>(migrations')) throw new Error(`${service}: pool not found`);
      // Connections outside that pool: another pool (the gateway's for nonces and rate counters), a LISTEN
      // each (outbox relay, route or delivery wake-ups), a health check's own client.
      const files = readdirSync(join(REPO_ROOT, 'services', service, 'src'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
      const code = files.map((f) => source(`services/${service}/src/${f}`)).join('\n');
      const otherPools = [...code.matchAll(/\bcreateDb(?:<\w+>)?\(([^;]*?)\)/gs)].map((m) => {
        const size = /poolSize: (\d+)/.exec(m[1]!);
        return size ? Number(size[1]) : defaultPool;
      });
      const dedicated =
        otherPools.reduce((a, b) => a + b, 0) +
        (code.match(/\bstartOutboxRelay\(/g) ?? []).length +
        (code.match(/\blisten\((config\.DATABASE_URL|opts\.databaseUrl)\b/g) ?? []).length +
        (code.match(/\bcheckPostgres\(/g) ?? []).length;
      const perPod = Math.max(pool + dedicated, migratePool);
      const hpa = hpas.find((h) => h.spec!.scaleTargetRef.name === service)!;
      // A rollout at the maximum adds maxSurge pods before it removes any.
      const pods = hpa.spec!.maxReplicas + Number(d.spec!.strategy!.rollingUpdate!.maxSurge);
      lines.push(`${service}: ${pods} pods × (${pool} pooled + ${dedicated} beside) = ${pods * perPod}`);
      total += pods * perPod;
    }
    // psql sessions, a backup's pg_dump, a monitoring exporter.
    const operators = 10;
    const max = Number(deps()['POSTGRES_MAX_CONNECTIONS']);
    expect(total + operators, lines.join('\n')).toBeLessThanOrEqual(max);
    // And the budget is the one docs/deploy.md states.
    expect(source('docs/deploy.md')).toContain(`${total} connections`);
  });

  it('scrapes every service with a PodMonitor on the port it serves /metrics on', () => {
    const monitors = ofKind<{ metadata: { name: string }; spec: PodMonitorSpec }>(prod(), 'PodMonitor');
    for (const d of deployments('prod')) {
      const variable = METRICS_PORT_VARIABLE[serviceOf(d)]!;
      const c = mainContainer(d);
      const own = monitors.filter((m) => selects(m.spec.selector, podLabels(d)));
      expect(own.length, d.metadata!.name).toBe(1);
      const endpoints = own[0]!.spec.podMetricsEndpoints ?? [];
      expect(
        endpoints.map((e) => [containerPort(c, e.port!), e.path]),
        d.metadata!.name,
      ).toEqual([[Number(envValue(c, variable)), '/metrics']]);
    }
  });

  it('ships the alert rules and a dashboard that use only metrics the services export', () => {
    const rule = named<{ spec: { groups: { name: string; rules: { alert?: string; expr: string }[] }[] } }>(
      prod(),
      'PrometheusRule',
      'agentpay',
    );
    const alerts = rule.spec.groups.flatMap((g) => g.rules.map((r) => r.alert));
    expect(alerts).toEqual(
      expect.arrayContaining([
        'ReconciliationMissingMoney',
        'ReconciliationDiscrepancyOld',
        'ReconciliationStale',
        'CallbackBacklog',
        'CallbackFailureRate',
        'OutboxLagHigh',
        'ConsumerLagHigh',
        'ChannelRefusingCalls',
        'WebhooksAllRefused',
        'RouteUnavailable',
        'ClabePoolExhausted',
      ]),
    );
    const dashboard = named<IConfigMap>(prod(), 'ConfigMap', 'agentpay-grafana-dashboard');
    expect(dashboard.metadata!.labels?.['grafana_dashboard']).toBe('1');
    const panels = (
      JSON.parse(dashboard.data!['agentpay.json']!) as { panels: { targets: { expr: string }[] }[] }
    ).panels;
    const exprs = [
      ...rule.spec.groups.flatMap((g) => g.rules.map((r) => r.expr)),
      ...panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ];
    const exported = exportedMetrics();
    const used = new Set(exprs.flatMap(metricNames));
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});

/** What the tests read of a PodMonitor (the schema validated it). */
interface PodMonitorSpec {
  selector: Selector;
  podMetricsEndpoints?: { port?: string; path?: string }[];
}

/** The metric names the services and packages register (prom-client), with each histogram's series. */
function exportedMetrics(): Set<string> {
  const names = new Set<string>();
  const roots = ['services', 'packages'].map((r) => join(REPO_ROOT, r));
  for (const root of roots) {
    for (const file of readdirSync(root, { recursive: true }).map(String)) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.includes('node_modules')) continue;
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/new (Counter|Gauge|Histogram)\(\{\s*name: '([a-z_]+)'/g)) {
        names.add(m[2]!);
        if (m[1] === 'Histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(`${m[2]}${s}`);
      }
      // requestMetrics(registry, '<prefix>', …): <prefix>_requests_total and its latency histogram.
      for (const m of text.matchAll(/requestMetrics\([^,]+, '([a-z_]+)'/g)) {
        names.add(`${m[1]}_requests_total`);
        for (const s of ['_bucket', '_sum', '_count']) names.add(`${m[1]}_request_duration_seconds${s}`);
      }
    }
  }
  return names;
}

/** The metric names a PromQL expression reads: identifiers that are not functions, keywords or labels. */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'time', 'inf', 'nan']);
  return [...stripped.matchAll(/\b([a-z_][a-z0-9_]*)\b(\s*\()?/gi)]
    .filter((m) => !m[2] && !keywords.has(m[1]!.toLowerCase()))
    .map((m) => m[1]!);
}
