import { z } from 'zod';

// The list queries of GET /admin/orders, /admin/transfers and their dashboard twins: checked here once, so
// a bad query is a 400 naming the field before any service is asked.

const PAY_STATUSES = ['wait', 'progress', 'success', 'close', 'cancel', 'fail', 'timeout'] as const;
const TRANSFER_STATUSES = ['progress', 'success', 'fail', 'close'] as const;

const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 instant' });

const common = {
  q: z.string().trim().max(64, 'at most 64 characters').optional(),
  from: instant.optional(),
  to: instant.optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,80}$/, 'must be a next value of an earlier page')
    .optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'at least 1')
    .max(200, 'at most 200')
    .optional(),
};

const mchNo = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'letters, digits, _ and - only')
  .optional();

const statusOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional();

/** The operators' queries (a merchant filter allowed). */
export const adminOrderQuery = z.strictObject({ ...common, mchNo, status: statusOf(PAY_STATUSES) });
export const adminTransferQuery = z.strictObject({ ...common, mchNo, status: statusOf(TRANSFER_STATUSES) });
/** The dashboard's (the merchant is the session's). */
export const dashboardOrderQuery = z.strictObject({ ...common, status: statusOf(PAY_STATUSES) });
export const dashboardTransferQuery = z.strictObject({ ...common, status: statusOf(TRANSFER_STATUSES) });

export type ListQuery = z.infer<typeof adminOrderQuery> | z.infer<typeof adminTransferQuery>;

/** The list request of ListPayOrders / ListTransfers for a checked query and the merchant it is scoped to. */
export function listRequest(query: Omit<ListQuery, 'mchNo'>, mchNo: string) {
  return {
    mch_no: mchNo,
    query: query.q ?? '',
    status: query.status ?? '',
    created_from: query.from ? new Date(query.from).toISOString() : '',
    created_to: query.to ? new Date(query.to).toISOString() : '',
    limit: query.limit ?? 50,
    cursor: query.cursor ?? '',
  };
}

/** An order or transfer number as a path parameter. */
const number = z.string().regex(/^[A-Za-z0-9]{1,40}$/, 'letters and digits only');
export const orderParams = z.object({ orderNo: number });
export const transferParams = z.object({ transferNo: number });
