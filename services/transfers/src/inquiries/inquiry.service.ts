import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import { AppError, requestFingerprint } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, InquiryRow } from '../db/schema.js';
import { checkPayee } from '../payees/payee-account.js';
import { budgetMs } from '../shared/deadline.js';
import type { Merchant, RequestContext } from '../shared/merchant.js';
import type { PayoutRouter } from '../upstream/router.client.js';
import { findInquiry, insertInquiry } from './inquiry.repository.js';

export interface InquiryServiceDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  /** Longest wait for the router's answer. */
  routerTimeoutMs: number;
}

type InquiryStatus = 'valid' | 'invalid' | 'unknown';
const STATUSES: readonly InquiryStatus[] = ['valid', 'invalid', 'unknown'];
const DEADLINE_MARGIN_MS = 500;

/** The payee a merchant asks about, as it sent it. */
export interface NewInquiry {
  bizInquryNo: string;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode: string;
  extraParam: string;
  attach: string;
}

/** Payee inquiries: local format check, then the router; one stored result per (mch_no, biz_inqury_no). */
export function createInquiryService(deps: InquiryServiceDeps) {
  const { db, router, logger } = deps;

  const repeat = (row: InquiryRow, fingerprint: string): InquiryRow => {
    if (row.fingerprint !== fingerprint) throw new AppError('DUPLICATE_INQUIRY');
    return row;
  };

  return {
    async inquire(merchant: Merchant, req: NewInquiry, context: RequestContext): Promise<InquiryRow> {
      // Unknown payee type or code, or a bank card without a code, are errors like on transfer: the
      // merchant must fix the request. Only the account's own format yields `invalid`.
      const check = checkPayee({
        payeeType: req.payeeType,
        payeeAccount: req.payeeAccount,
        payeeCode: req.payeeCode,
      });
      const business = {
        payee_type: check.payee.payeeType,
        payee_account: check.payee.payeeAccount,
        payee_name: req.payeeName,
        payee_code: check.payee.payeeCode,
        extra_param: req.extraParam,
        attach: req.attach,
      };
      const fingerprint = requestFingerprint(business);

      const stored = await findInquiry(db, merchant.mchNo, req.bizInquryNo);
      if (stored) return repeat(stored, fingerprint);

      let status: InquiryStatus = 'invalid';
      if (check.ok) {
        // Router errors (no route, upstream unavailable, type or code not offered) pass through and
        // store nothing, so the merchant can retry the same bizInquryNo.
        const answer = await router.inquirePayee(
          {
            mchNo: merchant.mchNo,
            payeeType: business.payee_type,
            payeeAccount: business.payee_account,
            payeeName: business.payee_name,
            payeeCode: business.payee_code,
          },
          {
            timeoutMs: budgetMs(context.deadline, deps.routerTimeoutMs, DEADLINE_MARGIN_MS),
            traceparent: traceparentOr(context.traceparent),
          },
        );
        status = STATUSES.find((s) => s === answer.status) ?? 'unknown';
        if (status !== answer.status)
          logger.warn({ status: answer.status }, 'router answered an unknown inquiry status');
      }

      const inserted = await insertInquiry(db, {
        ...business,
        mch_no: merchant.mchNo,
        app_id: merchant.appId,
        biz_inqury_no: req.bizInquryNo,
        status,
        source: check.ok ? 'upstream' : 'local',
        fingerprint: fingerprint,
      });
      if (inserted) return inserted;
      // A concurrent request with the same key stored its result first; that one is the answer.
      const winner = await findInquiry(db, merchant.mchNo, req.bizInquryNo);
      if (!winner) throw new AppError('INTERNAL_ERROR');
      return repeat(winner, fingerprint);
    },
  };
}

export type InquiryService = ReturnType<typeof createInquiryService>;
