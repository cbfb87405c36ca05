// What must hold across replicas beyond the checks of every run: one nonce is spent once over both
// gateways and a merchant's rate limit counts the requests of both (they admit through the same tables),
// and the events stream and its consumers keep as many copies as configured, on distinct NATS nodes,
// after the faults.
import type { KeyObject } from 'node:crypto';
import { connectNats, ensureStream, NATS_PROVISION_USER } from '@agentpay/messaging';
import type { NatsCredentials, Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant } from '@agentpay/testing';
import { type Envelope, verifyEnvelope } from '@agentpay/wire';
import { jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { errorText, post } from './client.js';

/** A connection as the provision user, the only one allowed the whole JetStream API. */
function asProvision(natsUrl: string, credentials: NatsCredentials) {
  return connectNats(natsUrl, {
    name: 'chaos',
    auth: { user: NATS_PROVISION_USER, password: credentials.passwords[NATS_PROVISION_USER] },
    inboxOwner: NATS_PROVISION_USER,
  });
}

/**
 * Declares the events stream before any service starts, as the provision user: first with one copy, then
 * with `replicas`, so the run also proves that a changed count is applied to an existing stream. The
 * stack's provision step declares it again with EVENTS_STREAM_REPLICAS before the services start.
 */
export async function declareStream(
  natsUrl: string,
  credentials: NatsCredentials,
  subjects: string[],
  replicas: number,
): Promise<string[]> {
  const stream = credentials.naming.stream;
  const nc = await asProvision(natsUrl, credentials);
  const out: string[] = [];
  try {
    await ensureStream(nc, { name: stream, subjects, replicas: 1 });
    const info = await ensureStream(nc, { name: stream, subjects, replicas });
    if (info.config.num_replicas !== replicas)
      out.push(`stream ${stream} kept ${info.config.num_replicas} copies when ${replicas} were asked for`);
  } finally {
    await nc.close();
  }
  return out;
}

/** The same signed request (same nonce) sent to every gateway replica at once: one must take it. */
export async function checkNonceAcrossGateways(
  stack: Pick<Stack, 'gatewayUrls'>,
  merchant: TestMerchant,
  platformKey: KeyObject,
): Promise<string[]> {
  const body = JSON.stringify(merchant.signed({}));
  const replies = await Promise.all(
    stack.gatewayUrls.map((url) =>
      post(`${url}/gateway/options/pay-methods`, body, 15_000).then(
        (r) => {
          const envelope = JSON.parse(r.body) as Envelope;
          return verifyEnvelope(envelope, platformKey) ? envelope.code : `unsigned ${envelope.code}`;
        },
        (err: unknown) => `failed: ${errorText(err)}`,
      ),
    ),
  );
  const accepted = replies.filter((code) => code === 0).length;
  const refused = replies.filter((code) => code === 20054).length;
  return accepted === 1 && refused === stack.gatewayUrls.length - 1
    ? []
    : [`one nonce sent to ${stack.gatewayUrls.length} gateway replicas answered ${replies.join(', ')}`];
}

/**
 * A burst over every gateway replica from a merchant limited to `limit` requests a second: the gateway's
 * database must have counted each request once in one per-second row shared by the replicas, and exactly
 * the first `limit` of each second may have been admitted. Replicas counting apart would admit more.
 */
export async function checkRateLimitAcrossGateways(
  stack: Pick<Stack, 'gatewayUrls' | 'urls' | 'databaseUrl'>,
  mchNo: string,
  platformKey: KeyObject,
  limit = 3,
  burst = 24,
): Promise<string[]> {
  const merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    mchNo,
  });
  const patched = await fetch(`${stack.urls.admin}/admin/merchants/${mchNo}`, {
    method: 'PATCH',
    headers: { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' },
    body: JSON.stringify({ rateLimitPerS: limit }),
  });
  if (!patched.ok) return [`could not limit ${mchNo}: HTTP ${patched.status}`];
  const codes = await Promise.all(
    Array.from({ length: burst }, (_, i) =>
      post(
        `${stack.gatewayUrls[i % stack.gatewayUrls.length]}/gateway/options/pay-methods`,
        JSON.stringify(merchant.signed({})),
        15_000,
      ).then(
        (r) => {
          const envelope = JSON.parse(r.body) as Envelope;
          return verifyEnvelope(envelope, platformKey) ? envelope.code : -1;
        },
        () => -1,
      ),
    ),
  );
  const admitted = codes.filter((c) => c === 0).length;
  const limited = codes.filter((c) => c === 42900).length;
  const db = new pg.Client({ connectionString: stack.databaseUrl('gateway') });
  await db.connect();
  try {
    const { rows } = await db.query<{ count: number }>(
      'select count::int as count from rate_windows where mch_no = $1',
      [mchNo],
    );
    const counted = rows.reduce((sum, r) => sum + r.count, 0);
    const allowed = rows.reduce((sum, r) => sum + Math.min(r.count, limit), 0);
    const out: string[] = [];
    if (admitted + limited !== burst)
      out.push(`rate-limit burst: ${burst - admitted - limited} requests answered neither 0 nor 42900`);
    if (counted !== burst) out.push(`rate-limit burst: ${burst} requests, ${counted} counted`);
    if (admitted !== allowed)
      out.push(
        `rate-limit burst: ${admitted} admitted over ${rows.length} second(s) at ${limit}/s; the shared count allows ${allowed}`,
      );
    return out;
  } finally {
    await db.end();
  }
}

/** The stream and each of its consumers have `replicas` copies, all current, on distinct nodes. */
export async function checkStreamCopies(
  natsUrl: string,
  credentials: NatsCredentials,
  stream: string,
  replicas: number,
): Promise<string[]> {
  const nc = await asProvision(natsUrl, credentials);
  const out: string[] = [];
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream);
    const copies = (c: { leader?: string; replicas?: { name: string; current: boolean }[] } | undefined) => [
      ...(c?.leader ? [c.leader] : []),
      ...(c?.replicas ?? []).filter((r) => r.current).map((r) => r.name),
    ];
    const streamCopies = new Set(copies(info.cluster));
    if (info.config.num_replicas !== replicas || streamCopies.size !== replicas)
      out.push(
        `stream ${stream}: ${info.config.num_replicas} configured, current on ${[...streamCopies].join(', ') || 'none'}`,
      );
    for await (const consumer of jsm.consumers.list(stream)) {
      // A consumer with no count of its own (0) follows its stream's.
      const configured = consumer.config.num_replicas || info.config.num_replicas;
      const consumerCopies = new Set(copies(consumer.cluster));
      if (configured !== replicas || consumerCopies.size !== replicas)
        out.push(
          `consumer ${consumer.name}: ${configured} configured, current on ${[...consumerCopies].join(', ') || 'none'}`,
        );
    }
  } catch (err) {
    out.push(`stream ${stream}: ${errorText(err)}`);
  } finally {
    await nc.close();
  }
  return out;
}
