import type { FastifyInstance } from '@agentpay/http';
import { csvRow } from '@agentpay/http';
import type { ComplianceServiceClient } from '@agentpay/proto';
import { formatWireTime } from '@agentpay/wire';
import { z } from 'zod';
import { periodOf } from '../ledger/index.js';
import { schemaProblem } from '../shared/schema-problem.js';
import { complianceCaller } from './compliance-calls.js';

// The desk's report (docs/compliance.md "Reports"): the operations of the cases closed as `report` (or the
// blocked-list matches) of the Mexico City days asked, inclusive, streamed as CSV.

const reportQuery = z.strictObject({
  kind: z.enum(['unusual', 'blocked']),
  from: z.string().optional(),
  to: z.string().optional(),
});

export const REPORT_COLUMNS = [
  'operationTime',
  'kind',
  'amount',
  'currency',
  'merchant',
  'counterpartyName',
  'account',
  'bank',
  'rfcCurp',
  'claveRastreo',
  'caseId',
  'ruleOrList',
  'reason',
] as const;

export function registerComplianceReport(
  app: FastifyInstance,
  deps: { compliance: ComplianceServiceClient; timeoutMs: number; timeZone: string },
): void {
  const { compliance } = deps;
  const ask = complianceCaller(compliance, deps.timeoutMs);
  app.get('/admin/compliance/reports', async (request, reply) => {
    const query = reportQuery.safeParse(request.query ?? {});
    if (!query.success)
      return reply.code(400).send({ error: 'bad_request', message: schemaProblem(query.error) });
    const period = periodOf(query.data, deps.timeZone);
    if (typeof period === 'string') return reply.code(400).send({ error: 'bad_request', message: period });
    const found = await ask(compliance.Report, {
      kind: query.data.kind,
      from: period.start.toISOString(),
      to: period.end.toISOString(),
    });
    if (found.status !== 200) return reply.code(found.status).send(found.body);
    const { rows } = found.body as { rows: Record<(typeof REPORT_COLUMNS)[number], string>[] };
    const lines = [csvRow(REPORT_COLUMNS)];
    for (const row of rows)
      lines.push(
        csvRow(
          REPORT_COLUMNS.map((column) =>
            column === 'operationTime'
              ? formatWireTime(new Date(row.operationTime), deps.timeZone)
              : row[column],
          ),
        ),
      );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="compliance-${query.data.kind}-${period.from}-${period.to}.csv"`,
      )
      .header('cache-control', 'no-store')
      .send(lines.join(''));
  });
}
