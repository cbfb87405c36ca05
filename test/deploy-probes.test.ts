/**
 * Every probe the Kubernetes manifests declare, sent to the real services: the whole stack runs as processes
 * and each probe (HTTP path or grpc.health.v1 on its port) is answered as the kubelet would need it.
 */
import type { Ports, ServiceName, Stack } from '@agentpay/stack';
import { waitFor } from '@agentpay/testing';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IContainer, IProbe } from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGrpcHealth } from '../packages/proto/src/index.js';
import { ofKind, renderOverlay } from './support/deploy-manifests.js';
import { startTestStack } from './support/stack.js';

/** Which stack port a service's port variable becomes (the same variables the stack launcher sets). */
const STACK_PORT: Record<ServiceName, Record<string, keyof Ports>> = {
  gateway: { GATEWAY_PORT: 'gateway', ADMIN_PORT: 'admin' },
  payments: { GRPC_PORT: 'payments' },
  transfers: { GRPC_PORT: 'transfers' },
  ledger: { GRPC_PORT: 'ledger', METRICS_PORT: 'ledgerMetrics' },
  compliance: { GRPC_PORT: 'compliance', METRICS_PORT: 'complianceMetrics' },
  'upstream-router': { GRPC_PORT: 'router', NOTICE_PORT: 'routerNotices' },
  notifier: { NOTIFIER_PORT: 'notifier' },
  'upstream-sandbox': { SANDBOX_PORT: 'sandbox' },
};

interface Probe {
  where: string;
  kind: 'http' | 'grpc';
  path: string;
  port: number;
}

/** The stack port behind a manifest container port: the port variable set to it, mapped as the stack maps it. */
function stackPort(stack: Stack, service: ServiceName, container: IContainer, port: number | string): number {
  const number =
    typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;
  const variable = container.env?.find((e) => e.value === String(number) && e.name in STACK_PORT[service]);
  if (!variable) throw new Error(`${service}: no port variable is set to ${port}`);
  return stack.ports[STACK_PORT[service][variable.name]!];
}

describe('the probes of the manifests, against the running services', () => {
  let stack: Stack;
  let probes: Probe[];

  beforeAll(async () => {
    // dev runs every service, the sandbox included; prod's probes are the same objects (base).
    const deployments = ofKind<IDeployment>(renderOverlay('dev'), 'Deployment');
    stack = await startTestStack();
    probes = deployments.flatMap((d) => {
      const service = d.metadata!.name as ServiceName;
      const container = d.spec!.template.spec!.containers.find((c) => c.name === service)!;
      const declared: [string, IProbe | undefined][] = [
        ['startup', container.startupProbe],
        ['readiness', container.readinessProbe],
        ['liveness', container.livenessProbe],
      ];
      return declared.map(([kind, probe]): Probe => {
        const where = `${service} ${kind}`;
        if (probe?.httpGet) {
          return {
            where,
            kind: 'http',
            path: probe.httpGet.path ?? '/',
            port: stackPort(stack, service, container, probe.httpGet.port),
          };
        }
        if (probe?.grpc) {
          return {
            where,
            kind: 'grpc',
            path: probe.grpc.service ?? '',
            port: stackPort(stack, service, container, probe.grpc.port),
          };
        }
        throw new Error(`${where}: neither httpGet nor grpc`);
      });
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('finds three probes for each of the eight services', () => {
    expect(probes).toHaveLength(24);
  });

  it('gets a 2xx from every HTTP probe path, the gateway readiness (/healthz, every dependency up) included', async () => {
    const http = probes.filter((p) => p.kind === 'http');
    expect(http.map((p) => p.where)).toEqual(
      expect.arrayContaining(['gateway readiness', 'notifier liveness', 'upstream-sandbox startup']),
    );
    for (const probe of http) {
      const response = await fetch(`http://127.0.0.1:${probe.port}${probe.path}`);
      expect(response.status, `${probe.where} GET ${probe.path}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `${probe.where} GET ${probe.path}`).toBeLessThan(300);
    }
  });

  it('gets SERVING from grpc.health.v1 on every gRPC probe port', async () => {
    const grpc = probes.filter((p) => p.kind === 'grpc');
    expect(new Set(grpc.map((p) => p.where.split(' ')[0]))).toEqual(
      new Set(['compliance', 'ledger', 'payments', 'transfers', 'upstream-router']),
    );
    for (const probe of grpc) {
      // The kubelet asks for service '' unless the probe names one; checkGrpcHealth asks for ''.
      expect(probe.path, probe.where).toBe('');
      expect(await checkGrpcHealth(`127.0.0.1:${probe.port}`), probe.where).toBe(true);
    }
  });

  // Last: it stops services for good.
  it('keeps the gateway ready with the notifier stopped (its outage a metric), and not ready with the ledger stopped', async () => {
    const readiness = probes.find((p) => p.where === 'gateway readiness')!;
    const ready = async () => {
      const response = await fetch(`http://127.0.0.1:${readiness.port}${readiness.path}`);
      return {
        status: response.status,
        body: (await response.json()) as { checks: Record<string, boolean> },
      };
    };
    const notifierUp = async () => {
      const metrics = await (await fetch(`${stack.urls.admin}/metrics`)).text();
      // Every series also carries the registry's default label (service="gateway").
      return /^gateway_dependency_up\{[^}]*dependency="notifier"[^}]*\} (\d)$/m.exec(metrics)?.[1];
    };

    await stack.kill('notifier');
    // The probe's answer is kept for a second: wait until it has seen the notifier gone.
    const degraded = await waitFor(
      async () => {
        const answer = await ready();
        return answer.body.checks['notifier'] === false ? answer : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, message: 'the readiness probe to see the notifier down' },
    );
    expect(degraded.status).toBe(200);
    expect(degraded.body.checks).toMatchObject({ ledger: true, payments: true, transfers: true });
    expect(await notifierUp()).toBe('0');

    await stack.kill('ledger');
    const down = await waitFor(
      async () => {
        const answer = await ready();
        return answer.body.checks['ledger'] === false ? answer : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, message: 'the readiness probe to see the ledger down' },
    );
    // Balances need the ledger: without it the pod leaves the Ingress.
    expect(down.status).toBe(503);
  });
});
