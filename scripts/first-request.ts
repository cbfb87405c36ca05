// `npm run first-request`: against a running stack (npm start), registers a demo merchant with a fresh
// key pair through the admin API, sends one signed request, verifies the platform's signed reply, and
// prints everything a merchant needs to reproduce it: the key files, the canonical string, the body and curl.
import { createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@agentpay/stack';
import {
  canonicalString,
  type Envelope,
  formatWireTime,
  generateKeyPair,
  parsePublicKey,
  signObject,
  verifyEnvelope,
} from '@agentpay/wire';

const gateway = process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:8080';
const admin = process.env['ADMIN_URL'] ?? 'http://127.0.0.1:8081';
const token = process.env['ADMIN_TOKEN'] ?? 'dev-admin-token';
const mchNo = process.env['MCH_NO'] ?? 'DEMO0001';
const dir = join(REPO_ROOT, '.agentpay', 'merchants', mchNo);

async function adminCall(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${admin}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

async function main(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const privateFile = join(dir, 'private-key.pem');
  const publicFile = join(dir, 'public-key.pem');
  if (!existsSync(privateFile)) {
    const pair = generateKeyPair();
    writeFileSync(privateFile, pair.privateKeyPem, { mode: 0o600 });
    writeFileSync(publicFile, pair.publicKeyPem);
  }
  const publicKey = readFileSync(publicFile, 'utf8');
  const existing = await adminCall(`/admin/merchants/${mchNo}`);
  if (existing.status === 404) {
    const created = await adminCall('/admin/merchants', {
      method: 'POST',
      body: JSON.stringify({ mchNo, name: 'Demo merchant', publicKey }),
    });
    if (created.status !== 201) throw new Error(`admin API refused the merchant: ${await created.text()}`);
    console.log(`registered merchant ${mchNo} with the public key in ${publicFile}`);
  } else if (!existing.ok) {
    throw new Error(`admin API answered ${existing.status}: is the stack running (npm start)?`);
  }
  const platformPem = ((await (await adminCall('/admin/platform-key')).json()) as { publicKey: string })
    .publicKey;

  const body: Record<string, unknown> = {
    mchNo,
    reqTime: formatWireTime(new Date(), process.env['API_TIME_ZONE'] ?? 'America/Mexico_City'),
    nonceStr: Math.random().toString(36).slice(2, 14),
  };
  console.log(`\ncanonical string:\n  ${canonicalString(body)}`);
  body['sign'] = signObject(body, createPrivateKey(readFileSync(privateFile, 'utf8')));
  const json = JSON.stringify(body);
  console.log(
    `\nrequest (send it within 5 minutes; a nonceStr is single-use):\n  curl -s -X POST ${gateway}/gateway/options/pay-methods -H 'content-type: application/json' -d '${json}'`,
  );

  const response = await fetch(`${gateway}/gateway/options/pay-methods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: json,
  });
  const envelope = (await response.json()) as Envelope;
  console.log(`\nreply (HTTP ${response.status}):\n  ${JSON.stringify(envelope)}`);
  const verified = verifyEnvelope(envelope, parsePublicKey(platformPem));
  console.log(`\nreply signature verifies with the platform public key: ${verified}`);
  if (!verified || envelope.code !== 0) process.exit(1);
}

main().catch((err: Error) => {
  console.error(`first-request failed: ${err.message}`);
  process.exit(1);
});
