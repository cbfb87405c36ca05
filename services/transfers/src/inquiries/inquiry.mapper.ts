import type { Inquiry__Output } from '@agentpay/proto';
import type { InquiryRow } from '../db/schema.js';

/** The inquiry as Inquire answers it. */
export function toInquiry(row: InquiryRow): Inquiry__Output {
  return {
    inqury_no: row.inqury_no,
    biz_inqury_no: row.biz_inqury_no,
    status: row.status,
    account_valid: row.status === 'valid',
    upload_payee_name: row.payee_name,
  };
}
