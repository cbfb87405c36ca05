import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ApiTarget, CliError, callApi, Exit, usage } from './http.js';

/** What every command gets: the admin API as the person acting, where to print, and the parsed options. */
export interface Context {
  admin: ApiTarget;
  /** A line on stdout (results). */
  out(text: string): void;
  /** Text on stdout as it comes (streams: CSV). */
  write(text: string): void;
  /** A line on stderr (messages). */
  err(text: string): void;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  env: NodeJS.ProcessEnv;
  /** Where `login` stores the personal token. */
  credentialsFile: string;
  /** Asks on the terminal (hidden: no echo); undefined when there is no terminal. */
  prompt: ((question: string, hidden: boolean) => Promise<string>) | undefined;
  readStdin(): Promise<string>;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function option(ctx: Context, name: string): string | undefined {
  const value = ctx.values[name];
  return typeof value === 'string' ? value : undefined;
}

function requireOption(ctx: Context, name: string): string {
  const value = option(ctx, name);
  if (value === undefined || value === '') throw usage(`--${name} is required`);
  return value;
}

function requirePositional(ctx: Context, what: string): string {
  const value = ctx.positionals[0];
  if (!value) throw usage(`${what} is required`);
  if (ctx.positionals.length > 1) throw usage(`unexpected argument "${ctx.positionals[1]}"`);
  return value;
}

function integer(ctx: Context, name: string, min: number, max: number): number | undefined {
  const text = option(ctx, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw usage(`--${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return n;
}

function readFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${what} ${path}: ${(err as Error).message}`, Exit.FAILED);
  }
}

/** SHA-256 of the key's SPKI DER, the fingerprint the admin API shows for merchant keys. */
function fingerprint(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex');
}

function feeRate(ctx: Context): { percentBps: number; fixedCentavos: number } | undefined {
  const percentBps = integer(ctx, 'fee-bps', 0, 10_000);
  const fixedCentavos = integer(ctx, 'fee-fixed-centavos', 0, 100_000_000);
  if (percentBps === undefined && fixedCentavos === undefined) return undefined;
  return { percentBps: percentBps ?? 0, fixedCentavos: fixedCentavos ?? 0 };
}

function appIds(ctx: Context): string[] | undefined {
  const value = ctx.values['app-id'];
  return Array.isArray(value) ? value : undefined;
}

const merchantPath = (mchNo: string) => `/admin/merchants/${encodeURIComponent(mchNo)}`;

export async function keygen(ctx: Context): Promise<void> {
  const dir = resolve(requireOption(ctx, 'out'));
  const privateFile = join(dir, 'private-key.pem');
  const publicFile = join(dir, 'public-key.pem');
  if (!ctx.values['force']) {
    for (const file of [privateFile, publicFile]) {
      if (existsSync(file)) throw new CliError(`${file} exists; pass --force to replace it`, Exit.FAILED);
    }
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(privateFile, privateKey, { mode: 0o600 });
    writeFileSync(publicFile, publicKey);
  } catch (err) {
    throw new CliError(`cannot write the key files in ${dir}: ${(err as Error).message}`, Exit.FAILED);
  }
  ctx.out(
    [
      `private key: ${privateFile} (RSA-2048, PKCS#8; mode 600: it stays with the merchant, never send it)`,
      `public key:  ${publicFile} (SPKI; register it with the platform)`,
      `fingerprint: ${fingerprint(publicKey)}`,
      `next: npm run admin -- merchant create --mch-no <mchNo> --name <name> --public-key ${publicFile}`,
    ].join('\n'),
  );
}

export async function merchantCreate(ctx: Context): Promise<void> {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
  const mchNo = requireOption(ctx, 'mch-no');
  const name = requireOption(ctx, 'name');
  const publicKey = readFile(requireOption(ctx, 'public-key'), 'public key file');
  const body = {
    mchNo,
    name,
    publicKey,
    ...(appIds(ctx) ? { appIds: appIds(ctx) } : {}),
    ...(feeRate(ctx) ? { feeRate: feeRate(ctx) } : {}),
    ...(option(ctx, 'settle-type') ? { settleType: option(ctx, 'settle-type') } : {}),
  };
  ctx.out(json(await callApi(ctx.admin, 'POST', '/admin/merchants', body)));
}

export async function merchantShow(ctx: Context): Promise<void> {
  const mchNo = requirePositional(ctx, 'the merchant number');
  ctx.out(json(await callApi(ctx.admin, 'GET', merchantPath(mchNo))));
}

export function merchantStatus(status: 'enabled' | 'disabled') {
  return async (ctx: Context): Promise<void> => {
    const mchNo = requirePositional(ctx, 'the merchant number');
    ctx.out(json(await callApi(ctx.admin, 'PATCH', merchantPath(mchNo), { status })));
  };
}

export async function merchantUpdate(ctx: Context): Promise<void> {
  const mchNo = requirePositional(ctx, 'the merchant number');
  const body = {
    ...(option(ctx, 'name') ? { name: option(ctx, 'name') } : {}),
    ...(appIds(ctx) ? { appIds: appIds(ctx) } : {}),
    ...(feeRate(ctx) ? { feeRate: feeRate(ctx) } : {}),
    ...(option(ctx, 'settle-type') ? { settleType: option(ctx, 'settle-type') } : {}),
  };
  if (Object.keys(body).length === 0) {
    throw usage('nothing to update: give --name, --app-id, --fee-bps/--fee-fixed-centavos or --settle-type');
  }
  ctx.out(json(await callApi(ctx.admin, 'PATCH', merchantPath(mchNo), body)));
}

export async function merchantAddKey(ctx: Context): Promise<void> {
  const mchNo = requirePositional(ctx, 'the merchant number');
  const addPublicKey = readFile(requireOption(ctx, 'public-key'), 'public key file');
  ctx.out(json(await callApi(ctx.admin, 'PATCH', merchantPath(mchNo), { addPublicKey })));
}

export async function merchantRevokeKey(ctx: Context): Promise<void> {
  const mchNo = requirePositional(ctx, 'the merchant number');
  const keyId = requireOption(ctx, 'key-id');
  ctx.out(json(await callApi(ctx.admin, 'PATCH', merchantPath(mchNo), { revokeKeyIds: [keyId] })));
}

export async function platformKey(ctx: Context): Promise<void> {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
  const answer = (await callApi(ctx.admin, 'GET', '/admin/platform-key')) as { publicKey?: unknown };
  if (typeof answer?.publicKey !== 'string') {
    throw new CliError('the admin API answered without a publicKey', Exit.FAILED);
  }
  const out = option(ctx, 'out');
  if (out === undefined) {
    ctx.out(answer.publicKey.trimEnd());
    return;
  }
  try {
    writeFileSync(out, answer.publicKey);
  } catch (err) {
    throw new CliError(`cannot write ${out}: ${(err as Error).message}`, Exit.FAILED);
  }
  ctx.out(`platform public key written to ${resolve(out)} (fingerprint ${fingerprint(answer.publicKey)})`);
}

export async function callbacksList(ctx: Context): Promise<void> {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
  const orderNo = requireOption(ctx, 'order-no');
  ctx.out(json(await callApi(ctx.admin, 'GET', `/admin/deliveries?orderNo=${encodeURIComponent(orderNo)}`)));
}

export async function callbacksResend(ctx: Context): Promise<void> {
  const id = requirePositional(ctx, 'the delivery id');
  ctx.out(json(await callApi(ctx.admin, 'POST', `/admin/deliveries/${encodeURIComponent(id)}/resend`)));
}

function routeBody(ctx: Context): unknown {
  const inline = option(ctx, 'body');
  const file = option(ctx, 'file');
  if ((inline === undefined) === (file === undefined))
    throw usage('give the route as --body <json> or --file <path>');
  const text = inline ?? readFile(file as string, 'route file');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw usage(`the route is not valid JSON: ${(err as Error).message}`);
  }
}

const routePath = (id: string) => `/admin/routes/${encodeURIComponent(id)}`;

export async function routesList(ctx: Context): Promise<void> {
  ctx.out(json(await callApi(ctx.admin, 'GET', '/admin/routes')));
}

export async function routesCreate(ctx: Context): Promise<void> {
  ctx.out(json(await callApi(ctx.admin, 'POST', '/admin/routes', routeBody(ctx))));
}

export async function routesUpdate(ctx: Context): Promise<void> {
  const id = requirePositional(ctx, 'the route id');
  ctx.out(json(await callApi(ctx.admin, 'PATCH', routePath(id), routeBody(ctx))));
}

export async function routesShow(ctx: Context): Promise<void> {
  const id = requirePositional(ctx, 'the route id');
  ctx.out(json(await callApi(ctx.admin, 'GET', routePath(id))));
}

export function routesEnabled(enabled: boolean) {
  return async (ctx: Context): Promise<void> => {
    const id = requirePositional(ctx, 'the route id');
    ctx.out(json(await callApi(ctx.admin, 'POST', `${routePath(id)}/${enabled ? 'enable' : 'disable'}`)));
  };
}

/** Replaces the merchants a route serves (they matter while its merchantScope is `list`). */
export async function routesMerchants(ctx: Context): Promise<void> {
  const id = requirePositional(ctx, 'the route id');
  const merchants = ctx.values['mch-no'];
  if (!Array.isArray(merchants) && !ctx.values['none']) {
    throw usage('give the merchants as --mch-no <mchNo> (repeat it), or --none to bind none');
  }
  const list = Array.isArray(merchants) ? merchants : [];
  ctx.out(json(await callApi(ctx.admin, 'PUT', `${routePath(id)}/merchants`, { merchants: list })));
}

export function routesBinding(bind: boolean) {
  return async (ctx: Context): Promise<void> => {
    const id = requirePositional(ctx, 'the route id');
    const mchNo = requireOption(ctx, 'mch-no');
    const path = `${routePath(id)}/merchants/${encodeURIComponent(mchNo)}`;
    ctx.out(json(await callApi(ctx.admin, bind ? 'POST' : 'DELETE', path)));
  };
}

/** A merchant's balance: available, pending and frozen, in pesos. */
export async function balance(ctx: Context): Promise<void> {
  const mchNo = requirePositional(ctx, 'the merchant number');
  ctx.out(json(await callApi(ctx.admin, 'GET', `${merchantPath(mchNo)}/balance`)));
}

const SIGNED_PESOS = /^-?\d{1,8}(\.\d{1,2})?$/;

/** Moves a signed amount into (+) or out of (−) a merchant's available balance; idempotent by reference. */
export async function adjust(ctx: Context): Promise<void> {
  const mchNo = requirePositional(ctx, 'the merchant number');
  const text = requireOption(ctx, 'amount');
  if (!SIGNED_PESOS.test(text) || Number(text) === 0) {
    throw usage(
      `--amount must be non-zero pesos with at most 2 decimals, e.g. 150.25 or, for a debit, --amount=-20; got "${text}"`,
    );
  }
  const body = {
    // The decimal text read as a number is the double nearest it, which the API reads back exactly.
    amount: Number(text),
    reason: requireOption(ctx, 'reason'),
    reference: requireOption(ctx, 'reference'),
  };
  ctx.out(json(await callApi(ctx.admin, 'POST', `${merchantPath(mchNo)}/adjustments`, body)));
}

/** Settles every pay-in due by --until (platform wall clock; default now). */
export async function settle(ctx: Context): Promise<void> {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
  const until = option(ctx, 'until');
  if (until !== undefined && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(until)) {
    throw usage(`--until must be "yyyy-MM-dd HH:mm:ss" on the platform wall clock, got "${until}"`);
  }
  ctx.out(json(await callApi(ctx.admin, 'POST', '/admin/settlements/run', until ? { until } : {})));
}

/** Verifies the books; prints the report and fails (exit 1) when a problem is found. */
export async function ledgerCheck(ctx: Context): Promise<void> {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
  const report = (await callApi(ctx.admin, 'GET', '/admin/ledger/check')) as { ok?: unknown };
  ctx.out(json(report));
  if (report?.ok !== true) throw new CliError('the ledger check found problems (listed above)', Exit.FAILED);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reconciles one day against the channels' statements (every route, or --route). */
export async function reconcile(ctx: Context): Promise<void> {
  const day = requirePositional(ctx, 'the day (yyyy-MM-dd)');
  if (!DAY.test(day)) throw usage(`the day must be yyyy-MM-dd, got "${day}"`);
  const route = option(ctx, 'route');
  ctx.out(
    json(
      await callApi(ctx.admin, 'POST', '/admin/reconciliations', {
        day,
        ...(route ? { routeId: route } : {}),
      }),
    ),
  );
}

export async function discrepanciesList(ctx: Context): Promise<void> {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
  const query = new URLSearchParams();
  for (const name of ['state', 'kind', 'day', 'limit', 'after']) {
    const value = option(ctx, name);
    if (value !== undefined) query.set(name, value);
  }
  const text = query.toString();
  ctx.out(json(await callApi(ctx.admin, 'GET', `/admin/discrepancies${text ? `?${text}` : ''}`)));
}

export async function discrepanciesShow(ctx: Context): Promise<void> {
  const id = requirePositional(ctx, 'the discrepancy id');
  ctx.out(json(await callApi(ctx.admin, 'GET', `/admin/discrepancies/${encodeURIComponent(id)}`)));
}

export async function discrepanciesResolve(ctx: Context): Promise<void> {
  const id = requirePositional(ctx, 'the discrepancy id');
  const action = requireOption(ctx, 'action');
  if (!['apply', 'credit', 'return'].includes(action)) {
    throw usage(`--action must be apply, credit or return, got "${action}"`);
  }
  // The operator is the person behind the token; --operator is read only by gateways older than that.
  const operator = option(ctx, 'operator');
  const body = { action, reason: requireOption(ctx, 'reason'), ...(operator ? { operator } : {}) };
  ctx.out(
    json(await callApi(ctx.admin, 'POST', `/admin/discrepancies/${encodeURIComponent(id)}/resolve`, body)),
  );
}

const APPROVAL_ID = /^apr_[0-9a-f]{24}$/;
const approvalPath = (ctx: Context) => {
  const id = requirePositional(ctx, 'the approval id (apr_…)');
  if (!APPROVAL_ID.test(id)) throw usage(`an approval id is apr_ and 24 hex digits, got "${id}"`);
  return `/admin/approvals/${id}`;
};

/** Four eyes: requests that wait (or waited) for a second person. */
export async function approvalsList(ctx: Context): Promise<void> {
  if (ctx.positionals.length > 0) throw usage(`unexpected argument "${ctx.positionals[0]}"`);
  const query = new URLSearchParams();
  for (const name of ['state', 'mine', 'limit', 'before']) {
    const value = option(ctx, name);
    if (value !== undefined) query.set(name, value);
  }
  const text = query.toString();
  ctx.out(json(await callApi(ctx.admin, 'GET', `/admin/approvals${text ? `?${text}` : ''}`)));
}

export async function approvalsShow(ctx: Context): Promise<void> {
  ctx.out(json(await callApi(ctx.admin, 'GET', approvalPath(ctx))));
}

/** Approves another person's request: it is executed at once, and the approval shows its result. */
export async function approvalsApprove(ctx: Context): Promise<void> {
  ctx.out(json(await callApi(ctx.admin, 'POST', `${approvalPath(ctx)}/approve`)));
}

export async function approvalsReject(ctx: Context): Promise<void> {
  const path = `${approvalPath(ctx)}/reject`;
  ctx.out(json(await callApi(ctx.admin, 'POST', path, { reason: requireOption(ctx, 'reason') })));
}
