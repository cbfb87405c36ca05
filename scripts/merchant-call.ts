// `npm run -s merchant -- <endpoint> ['<json params>']`: one signed call to the merchant API from a shell, as
// a merchant makes it. The TypeScript SDK fills in mchNo, reqTime and nonceStr, signs with your key and
// verifies the reply with the platform key; the verified envelope is printed as one JSON line (exit 0 even
// for a non-zero code, which is in the JSON), and a reply that does not verify exits 1. Settings, the same
// as every SDK's run-example: AGENTPAY_URL (default http://127.0.0.1:8080), AGENTPAY_MCH_NO,
// AGENTPAY_PRIVATE_KEY and AGENTPAY_PLATFORM_PUBLIC_KEY (paths to PEM files).
import { readFileSync } from 'node:fs';
import { AgentpayClient } from '@agentpay/merchant-sdk';

const USAGE = `usage: npm run -s merchant -- <endpoint> ['<json params>']
  endpoint: a path under /gateway, e.g. pay, query/payOrder, options/pay-methods, transfer, inqury
  example:  npm run -s merchant -- query/payOrder '{"bizOrderNo":"ORD-1"}'`;

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set\n${USAGE}`);
  return value;
}

async function main(): Promise<void> {
  const [endpoint, json = '{}'] = process.argv.slice(2);
  if (!endpoint || endpoint === '--help') {
    console.error(USAGE);
    process.exit(endpoint ? 0 : 2);
  }
  let params: unknown;
  try {
    params = JSON.parse(json);
  } catch {
    throw new Error(`the params are not JSON: ${json}`);
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new Error('the params must be a JSON object');
  }
  const client = new AgentpayClient({
    baseUrl: process.env['AGENTPAY_URL'] || 'http://127.0.0.1:8080',
    mchNo: setting('AGENTPAY_MCH_NO'),
    privateKey: readFileSync(setting('AGENTPAY_PRIVATE_KEY'), 'utf8'),
    platformPublicKey: readFileSync(setting('AGENTPAY_PLATFORM_PUBLIC_KEY'), 'utf8'),
  });
  const path = `/gateway/${endpoint.replace(/^\/?(gateway\/)?/, '')}`;
  const envelope = await client.request(path, params);
  console.log(JSON.stringify(envelope));
}

main().catch((err: Error) => {
  console.error(`merchant: ${err.message}`);
  process.exit(1);
});
