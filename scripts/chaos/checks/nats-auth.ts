// The run's NATS requires credentials as production does: after the faults (NATS itself restarted), an
// anonymous client is still refused, and every connection a service holds is authorised as that service's
// own user (the server's /connz with auth=true names each connection's user). A service that connected any
// other way, or not at all, is a violation.
import { connectNats, NATS_SERVICES } from '@agentpay/messaging';
import type { NatsCluster, NatsServer } from '@agentpay/stack';
import { errorText } from '../client.js';

interface Connz {
  connections?: { name?: string; authorized_user?: string }[];
}

/** Connections of every running node, from their monitoring endpoints. */
async function connections(nats: NatsServer | NatsCluster): Promise<{ name?: string; user?: string }[]> {
  const ports =
    'nodes' in nats ? nats.nodes.filter((n) => n.running()).map((n) => n.monitorPort) : [nats.monitorPort];
  const out: { name?: string; user?: string }[] = [];
  for (const port of ports) {
    const res = await fetch(`http://127.0.0.1:${port}/connz?auth=true&limit=4096`, {
      signal: AbortSignal.timeout(3_000),
    });
    if (!res.ok) throw new Error(`connz on ${port}: HTTP ${res.status}`);
    const body = (await res.json()) as Connz;
    for (const c of body.connections ?? []) {
      out.push({
        ...(c.name !== undefined && { name: c.name }),
        ...(c.authorized_user !== undefined && { user: c.authorized_user }),
      });
    }
  }
  return out;
}

export async function checkNatsAuth(nats: NatsServer | NatsCluster, replicas: number): Promise<string[]> {
  const out: string[] = [];
  if (!nats.credentials) return ['the run’s NATS was started without credentials'];
  try {
    const anonymous = await connectNats(nats.url, { name: 'chaos-anonymous' });
    await anonymous.close();
    out.push('an anonymous client was let in');
  } catch (err) {
    if (!/Authorization Violation/i.test(errorText(err)))
      out.push(`an anonymous connect failed, but not as refused: ${errorText(err)}`);
  }
  try {
    const seen = await connections(nats);
    for (const service of NATS_SERVICES) {
      const own = seen.filter((c) => c.name === service);
      if (own.length < replicas)
        out.push(`${service}: ${own.length} NATS connection(s) for ${replicas} process(es)`);
      for (const c of own)
        if (c.user !== service)
          out.push(`${service} connected as ${c.user ?? 'nobody'}, not as its own user`);
    }
    for (const c of seen)
      if (c.user === undefined) out.push(`a connection named ${c.name ?? '(none)'} holds no user`);
  } catch (err) {
    out.push(`NATS connections not readable: ${errorText(err)}`);
  }
  return out;
}
