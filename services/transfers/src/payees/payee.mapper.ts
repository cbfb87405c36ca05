import type { RegisteredPayee } from '@agentpay/proto';
import type { Payee } from './payee.service.js';

/** A registered payee as the gRPC contract carries it. */
export function toRegisteredPayee(payee: Payee): RegisteredPayee {
  return {
    payee_id: payee.payee_id,
    payee_type: payee.payee_type,
    payee_account: payee.payee_account,
    payee_name: payee.payee_name,
    payee_code: payee.payee_code,
    status: payee.status,
    usable_at: payee.usable_at.toISOString(),
    registered_by: payee.registered_by,
    approved_by: payee.approved_by,
    created_at: payee.created_at.toISOString(),
    removed_at: payee.removed_at ? payee.removed_at.toISOString() : '',
  };
}
