import { createHttpServer, type FastifyInstance } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import {
  type GetStatementRequest__Output,
  type GrpcServerHandle,
  type LedgerServiceClient,
  loadProtos,
  startGrpcServer,
  unary,
} from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Period, periodOf, sendStatementCsv } from './statement.js';

// The statement's period and its streamed CSV against a ledger that answers GetStatement in pages: every
// page read in turn (500 records each, never the statement at once), opening and closing rows, safe cells.

const TZ = 'America/Mexico_City';
const logger = createLogger({ service: 'test', level: 'silent' });
const protos = loadProtos();
const RECORDS = 1_203;
let server: GrpcServerHandle;
let client: LedgerServiceClient;
let app: FastifyInstance;
const asked: GetStatementRequest__Output[] = [];
/** A merchant whose third page fails. */
const BROKEN = 'MBROKEN';

/** Record i moves 1.00 into available; its balance after is the opening 5.00 plus i pesos. */
function record(i: number) {
  return {
    record_no: String(i),
    type: 'adjust',
    order_no: '',
    biz_order_no: i === 1 ? '=cmd|"/c calc"!A1' : `B${i}`,
    transfer_no: '',
    biz_transfer_no: '',
    amount: '100',
    fee: '0',
    available_change: '100',
    pending_change: '0',
    frozen_change: i === 2 ? '-50' : '0',
    available_balance: String(500 + 100 * i),
    pending_balance: '0',
    frozen_balance: i >= 2 ? '-50' : '0',
    remark: i === 3 ? '@SUM(A1)' : '',
    create_time: new Date(Date.UTC(2026, 10, 2, 12, 0, 0) + i * 1000).toISOString(),
  };
}

beforeAll(async () => {
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      [
        protos.agentpay.ledger.v1.LedgerService.service,
        {
          GetStatement: unary(logger, async (request: GetStatementRequest__Output) => {
            asked.push(request);
            const from = request.cursor ? Number(request.cursor) : 0;
            if (request.mch_no === BROKEN && from >= 2 * request.limit)
              throw new AppError('SERVICE_UNAVAILABLE');
            const upTo = Math.min(RECORDS, from + request.limit);
            const records = [];
            for (let i = from + 1; i <= upTo; i++) records.push(record(i));
            const balance = (available: string) => ({
              mch_no: request.mch_no,
              available,
              pending: '0',
              frozen: '0',
            });
            return {
              opening: balance('500'),
              closing: balance(String(500 + 100 * RECORDS)),
              records,
              next_cursor: upTo < RECORDS ? String(upTo) : '',
            };
          }),
        },
      ],
    ],
  });
  client = new protos.agentpay.ledger.v1.LedgerService(
    `127.0.0.1:${server.port}`,
    grpc.credentials.createInsecure(),
  ) as unknown as LedgerServiceClient;
  app = createHttpServer(logger);
  app.get<{ Params: { mchNo: string } }>('/csv/:mchNo', async (request, reply) => {
    const period = periodOf({ from: '2026-11-01', to: '2026-11-30' }, TZ) as Period;
    return sendStatementCsv(reply, { client, timeZone: TZ }, request.params.mchNo, period, {
      timeoutMs: 5_000,
    });
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  client?.close();
  await server?.stop(100);
});

const cells = (line: string) => line.split(',');

describe('the statement CSV', () => {
  it('streams every page of the ledger in order, between an opening and a closing row', async () => {
    asked.length = 0;
    const response = await app.inject({ method: 'GET', url: '/csv/M1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="statement-M1-2026-11-01-2026-11-30.csv"',
    );
    expect(asked.map((a) => [a.limit, a.cursor])).toEqual([
      [500, ''],
      [500, '500'],
      [500, '1000'],
    ]);
    expect(asked[0]?.start_time).toBe('2026-11-01T06:00:00.000Z');
    expect(asked[0]?.end_time).toBe('2026-12-01T06:00:00.000Z');
    const lines = response.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(0, -1);
    expect(rows).toHaveLength(1 + 1 + RECORDS + 1);
    expect(rows[0]).toBe(
      'recordNo,createTime,type,orderNo,bizOrderNo,transferNo,bizTransferNo,amount,fee,availableChange,pendingChange,frozenChange,availableBalance,pendingBalance,frozenBalance,remark',
    );
    expect(rows[1]).toBe(',2026-11-01 00:00:00,opening,,,,,,,,,,5,0,0,');
    expect(rows.at(-1)).toBe(`,2026-12-01 00:00:00,closing,,,,,,,,,,${5 + RECORDS},0,-0.5,`);
    expect(rows.slice(2, -1).map((r) => cells(r)[0])).toEqual(
      Array.from({ length: RECORDS }, (_, i) => String(i + 1)),
    );
    // A merchant's formula and an operator's remark arrive as text; a negative amount stays a number.
    expect(rows[2]).toContain(`"'=cmd|""/c calc""!A1"`);
    expect(rows[3]).toContain(',1,0,1,0,-0.5,7,0,-0.5,');
    expect(rows[4]?.endsWith(",'@SUM(A1)")).toBe(true);
    expect(cells(rows[2] ?? '')[1]).toBe('2026-11-02 06:00:01');
  });

  it('a ledger failure after the first page breaks the download off: never a file that looks complete', async () => {
    asked.length = 0;
    await expect(app.inject({ method: 'GET', url: `/csv/${BROKEN}` })).rejects.toThrow(/destroyed/);
    expect(asked.map((a) => a.cursor)).toEqual(['', '500', '1000']);
  });
});

describe('the statement period', () => {
  const now = new Date('2026-11-27T02:00:00Z'); // 26 November, 20:00 in Mexico City

  it('defaults to the first of the month to today, Mexico City days', () => {
    const period = periodOf({}, TZ, now) as Period;
    expect(period.from).toBe('2026-11-01');
    expect(period.to).toBe('2026-11-26');
    expect(period.start.toISOString()).toBe('2026-11-01T06:00:00.000Z');
    expect(period.end.toISOString()).toBe('2026-11-27T06:00:00.000Z');
    expect((periodOf({ to: '2026-02-10' }, TZ, now) as Period).from).toBe('2026-02-01');
  });

  it('refuses days that are not real, out of order, or more than 366 days apart', () => {
    expect(periodOf({ from: '2026-02-30' }, TZ, now)).toMatch(/^from/);
    expect(periodOf({ from: '2026-01-01', to: '2026-13-01' }, TZ, now)).toMatch(/^to/);
    expect(periodOf({ from: '2026-05-02', to: '2026-05-01' }, TZ, now)).toMatch(/from: must not be after to/);
    expect(periodOf({ from: '2024-01-01', to: '2024-12-31' }, TZ, now)).not.toBeTypeOf('string');
    expect(periodOf({ from: '2024-01-01', to: '2025-01-01' }, TZ, now)).toMatch(/366 days/);
  });
});
