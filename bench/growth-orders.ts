// The growth bench's orders pages (the console's and the dashboard's lists, search and timeline): what the
// admin API answers for a merchant with a million orders beside one with ten, in the same run, on the filled
// stores. The fill adds the two merchants' orders to payments (every other store already holds its own
// growth); the reads go through the gateway, as the console's pages do.
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Requests per figure and merchant. */
const READS = Number(process.env['GROWTH_ORDER_READS'] ?? '50');

export interface OrderMerchant {
  mchNo: string;
  orders: number;
  /** A paid order's claveRastreo and number, spread into the middle of its history. */
  claveRastreo: string;
  orderNo: string;
}

/** Adds a merchant with `1,000,000 × scale` orders and one with ten to the (stopped) payments store. */
export async function fillOrderMerchants(
  paymentsUrl: string,
  scale: number,
  log: (line: string) => void,
): Promise<{ big: OrderMerchant; small: OrderMerchant }> {
  const client = new pg.Client({ connectionString: paymentsUrl, application_name: 'bench-growth-orders' });
  await client.connect();
  try {
    await client.query('set synchronous_commit = off');
    const started = performance.now();
    const fill = async (mchNo: string, count: number, tag: string) => {
      // Every tenth order is paid (a claveRastreo); times spread over 180 days, as the main fill's.
      await client.query(
        `insert into pay_orders (order_no, mch_no, biz_order_no, title, method, amount, fee, real_amount, status,
           settle_type, pay_time, paid_amount, expired_time, pay_body, route_id, upstream_ref, clave_rastreo,
           fingerprint, version, created_at, updated_at, opened_at)
         select 'P' || to_char(created at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('pay_order_no_seq')::text, 12, '0'),
           $1, $2 || g, 'Order ' || g, 'mex_virtual_account', 10000, 100, 9900, status, 'D+1',
           case when paid then created + interval '10 minutes' end, case when paid then 10000 end,
           created + interval '1 day',
           '{"clabe":"64618' || $3 || lpad(g::text, 12, '0') || '","bank":"STP","beneficiary":"AGENTPAY"}',
           'sandbox-default', 'SBX' || $2 || g, case when paid then 'R' || $2 || g else '' end,
           md5($2 || g), case when paid then 2 else 1 end, created, created, created + interval '1 second'
         from (
           select g, g % 10 = 0 as paid, case when g % 10 = 0 then 'success' else 'timeout' end as status,
             now() - interval '180 days' + (g::float8 / $4) * interval '180 days' as created
           from generate_series(1, $4::int) g
         ) s`,
        [mchNo, tag, tag === 'OB' ? '1' : '2', count],
      );
    };
    const bigCount = Math.max(10, Math.round(1_000_000 * scale));
    const big = `GBIG${Date.now().toString(36).toUpperCase()}`;
    const small = `GSML${Date.now().toString(36).toUpperCase()}`;
    await fill(big, bigCount, 'OB');
    await fill(small, 10, 'OS');
    await client.query('analyze pay_orders');
    const pick = async (mchNo: string, tag: string, g: number): Promise<OrderMerchant> => {
      const { rows } = await client.query<{ order_no: string; clave_rastreo: string }>(
        'select order_no, clave_rastreo from pay_orders where mch_no = $1 and biz_order_no = $2',
        [mchNo, `${tag}${g}`],
      );
      const row = rows[0];
      if (!row) throw new Error(`no order ${tag}${g} of ${mchNo}`);
      return { mchNo, orders: 0, claveRastreo: row.clave_rastreo, orderNo: row.order_no };
    };
    // A paid order half way through each merchant's history (g a multiple of 10).
    const middle = Math.max(10, Math.round(bigCount / 20) * 10);
    const result = {
      big: { ...(await pick(big, 'OB', middle)), orders: bigCount },
      small: { ...(await pick(small, 'OS', 10)), orders: 10 },
    };
    log(
      `orders pages: ${bigCount} orders for ${big}, 10 for ${small} in ${fmt((performance.now() - started) / 1000, 0)} s`,
    );
    return result;
  } finally {
    await client.end();
  }
}

export interface ReadFigure {
  p50: number;
  p99: number;
  errors: number;
}

export interface OrderReads {
  list: ReadFigure;
  nextPage: ReadFigure;
  search: ReadFigure;
  timeline: ReadFigure;
}

const token = 'dev-admin-token';

async function once(url: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return { ms: performance.now() - started, ok: response.ok };
}

function figure(samples: Array<{ ms: number; ok: boolean }>): ReadFigure {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), errors: samples.filter((s) => !s.ok).length };
}

/** The URLs of one merchant's reads. Pages of five, so the merchant with ten has a second page too. */
async function readsOf(adminUrl: string, merchant: OrderMerchant): Promise<Record<keyof OrderReads, string>> {
  const base = `${adminUrl}/admin/orders?mchNo=${merchant.mchNo}&limit=5`;
  const first = await fetch(base, { headers: { authorization: `Bearer ${token}` } });
  const next = ((await first.json()) as { next?: string }).next ?? '';
  return {
    list: base,
    nextPage: next ? `${base}&cursor=${next}` : base,
    search: `${base}&q=${merchant.claveRastreo}`,
    timeline: `${adminUrl}/admin/orders/${merchant.orderNo}`,
  };
}

/**
 * The console's reads (the first page, the page after it, a claveRastreo search, a timeline) for both
 * merchants, one request of each in turn, so whatever else the machine does falls on both alike.
 */
export async function measureOrderReads(
  adminUrl: string,
  merchants: { big: OrderMerchant; small: OrderMerchant },
): Promise<{ big: OrderReads; small: OrderReads }> {
  const urls = {
    big: await readsOf(adminUrl, merchants.big),
    small: await readsOf(adminUrl, merchants.small),
  };
  const keys: Array<keyof OrderReads> = ['list', 'nextPage', 'search', 'timeline'];
  const result = { big: {} as OrderReads, small: {} as OrderReads };
  for (const key of keys) {
    const samples = {
      big: [] as Array<{ ms: number; ok: boolean }>,
      small: [] as Array<{ ms: number; ok: boolean }>,
    };
    for (let i = 0; i < READS; i++) {
      samples.small.push(await once(urls.small[key]));
      samples.big.push(await once(urls.big[key]));
    }
    result.big[key] = figure(samples.big);
    result.small[key] = figure(samples.small);
  }
  return result;
}

/** The side-by-side table of the two merchants' reads. */
export function logOrderReads(
  log: (line?: string) => void,
  big: OrderMerchant,
  small: OrderMerchant,
  reads: { big: OrderReads; small: OrderReads } | Error,
): void {
  log();
  log(
    `Orders pages on the filled stores (the console's reads through the admin API, ${READS} sequential requests each, the two merchants' in turn): a merchant with ${big.orders.toLocaleString('en-US')} orders beside one with ${small.orders}. Target: the big merchant's p99 within 2× (or 5 ms) of the small one's.`,
  );
  log();
  if (reads instanceof Error) {
    log(`Not measured: ${reads.message}`);
    return;
  }
  log(
    `| read | p50 ms (${small.orders} orders) | p50 ms (${big.orders.toLocaleString('en-US')}) | p99 ms (${small.orders}) | p99 ms (${big.orders.toLocaleString('en-US')}) | errors | verdict |`,
  );
  log('|---|---|---|---|---|---|---|');
  const rows: Array<[string, keyof OrderReads]> = [
    ['list, first page (5)', 'list'],
    ['list, second page', 'nextPage'],
    ['search by claveRastreo', 'search'],
    ["one order's timeline", 'timeline'],
  ];
  for (const [label, key] of rows) {
    const s = reads.small[key];
    const b = reads.big[key];
    const ok = b.p99 <= Math.max(2 * s.p99, s.p99 + 5);
    log(
      `| ${label} | ${fmt(s.p50, 2)} | ${fmt(b.p50, 2)} | ${fmt(s.p99, 2)} | ${fmt(b.p99, 2)} | ${s.errors} / ${b.errors} | ${ok ? 'same' : 'grows with the merchant'} |`,
    );
  }
}
