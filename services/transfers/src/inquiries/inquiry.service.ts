import type { Logger } from '@agentpay/logger';
import type { InquireRequest__Output, Inquiry__Output } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, InquiryRow } from '../db/schema.js';
import { checkPayee } from '../payees/payee-account.js';
import { budgetMs } from '../shared/deadline.js';
import { fingerprintOf } from '../shared/fingerprint.js';
import { requireMerchant } from '../shared/merchant.js';
import { traceparentOr } from '../shared/trace.js';
import type { PayoutRouter } from '../upstream/router-client.js';
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

function toInquiry(row: InquiryRow): Inquiry__Output {
  return {
    inqury_no: row.inqury_no,
    biz_inqury_no: row.biz_inqury_no,
    status: row.status,
    account_valid: row.status === 'valid',
    upload_payee_name: row.payee_name,
  };
}

/** Payee inquiries: local format check, then the router; one stored result per (mch_no, biz_inqury_no). */
export function createInquiryService(deps: InquiryServiceDeps) {
  const { db, router, logger } = deps;

  const repeat = (row: InquiryRow, fingerprint: string): Inquiry__Output => {
    if (row.request_fingerprint !== fingerprint) throw new AppError('DUPLICATE_INQUIRY');
    return toInquiry(row);
  };

  return {
    async inquire(req: InquireRequest__Output, deadline: number): Promise<Inquiry__Output> {
      const merchant = requireMerchant(req.merchant);
      if (!req.biz_inqury_no) throw new AppError('INVALID_PARAMETER', 'bizInquryNo: required');
      // Unknown payee type or code, or a bank card without a code, are errors like on transfer: the
      // merchant must fix the request. Only the account's own format yields `invalid`.
      const check = checkPayee({
        payeeType: req.payee_type,
        payeeAccount: req.payee_account,
        payeeCode: req.payee_code,
      });
      const business = {
        payee_type: check.payee.payeeType,
        payee_account: check.payee.payeeAccount,
        payee_name: req.payee_name,
        payee_code: check.payee.payeeCode,
        extra_param: req.extra_param,
        attach: req.attach,
      };
      const fingerprint = fingerprintOf(business);

      const stored = await findInquiry(db, merchant.mch_no, req.biz_inqury_no);
      if (stored) return repeat(stored, fingerprint);

      let status: InquiryStatus = 'invalid';
      if (check.ok) {
        // Router errors (no route, upstream unavailable, type or code not offered) pass through and
        // store nothing, so the merchant can retry the same bizInquryNo.
        const answer = await router.inquirePayee(
          {
            mch_no: merchant.mch_no,
            payee_type: business.payee_type,
            payee_account: business.payee_account,
            payee_name: business.payee_name,
            payee_code: business.payee_code,
          },
          {
            timeoutMs: budgetMs(deadline, deps.routerTimeoutMs, DEADLINE_MARGIN_MS),
            traceparent: traceparentOr(merchant.traceparent),
          },
        );
        status = STATUSES.find((s) => s === answer.status) ?? 'unknown';
        if (status !== answer.status)
          logger.warn({ status: answer.status }, 'router answered an unknown inquiry status');
      }

      const inserted = await insertInquiry(db, {
        ...business,
        mch_no: merchant.mch_no,
        app_id: merchant.app_id,
        biz_inqury_no: req.biz_inqury_no,
        status,
        source: check.ok ? 'upstream' : 'local',
        request_fingerprint: fingerprint,
      });
      if (inserted) return toInquiry(inserted);
      // A concurrent request with the same key stored its result first; that one is the answer.
      const winner = await findInquiry(db, merchant.mch_no, req.biz_inqury_no);
      if (!winner) throw new AppError('INTERNAL_ERROR');
      return repeat(winner, fingerprint);
    },
  };
}

export type InquiryService = ReturnType<typeof createInquiryService>;
