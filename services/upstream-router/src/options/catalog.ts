import { institutions } from '@agentpay/spei';

// The public vocabulary merchants see. Routes say which of these they serve; names never mention a channel.

export const PAY_METHODS: Readonly<Record<string, string>> = {
  mex_virtual_account: 'Mexico virtual account (SPEI to CLABE)',
};

export const PAYEE_TYPES: Readonly<Record<string, string>> = {
  spei_transfer: 'SPEI transfer to a CLABE',
  bank_card: 'Mexican debit card',
  user_id: 'Wallet user id',
  open_id: 'Wallet open id',
  login_name: 'Wallet login name',
};

/** Payee types whose payee code is a Banxico SPEI institution code. */
export const BANK_PAYEE_TYPES: ReadonlySet<string> = new Set(['spei_transfer', 'bank_card']);

/** Public payee codes: Banxico institution codes with their names. */
export const PUBLIC_BANK_CODES: ReadonlyMap<string, string> = new Map(
  institutions.map((i) => [i.spei, i.name]),
);

/** The sandbox channel's own codes are the 3-digit CLABE prefixes, so a merchant sending `012` is refused. */
export const SANDBOX_CODE_MAP: Readonly<Record<string, string>> = Object.fromEntries(
  institutions.map((i) => [i.spei, i.clabe]),
);
