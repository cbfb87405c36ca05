import { institutionByClabePrefix } from '@agentpay/spei';
import { AppError } from '@agentpay/wire';
import { BANK_PAYEE_TYPES, PUBLIC_BANK_CODES } from '../options/catalog.js';

/**
 * The public payee code a request stands for: undefined for types without codes (wallets); for bank
 * types the given code, or for a CLABE the code of its bank prefix. A code outside the public list,
 * such as a raw upstream code `012`, is PAYEE_CODE_NOT_AVAILABLE.
 */
export function publicPayeeCode(
  payeeType: string,
  payeeAccount: string,
  payeeCode: string,
): string | undefined {
  if (!BANK_PAYEE_TYPES.has(payeeType)) return undefined;
  const code =
    payeeCode ||
    (payeeType === 'spei_transfer' ? institutionByClabePrefix(payeeAccount.slice(0, 3))?.spei : undefined);
  if (!code || !PUBLIC_BANK_CODES.has(code)) throw new AppError('PAYEE_CODE_NOT_AVAILABLE');
  return code;
}
