import data from './institutions.json' with { type: 'json' };

/** A SPEI participant: Banxico institution code, 3-digit CLABE bank prefix and name. */
export interface Institution {
  readonly spei: string;
  readonly clabe: string;
  readonly name: string;
}

/** Every SPEI participant institution, from shared/spec/data/spei-institutions.json. */
export const institutions: readonly Institution[] = Object.freeze(
  data.institutions.map((i): Institution => Object.freeze({ spei: i.spei, clabe: i.clabe, name: i.name })),
);

const bySpei = new Map(institutions.map((i) => [i.spei, i]));
const byClabe = new Map(institutions.map((i) => [i.clabe, i]));

/** The institution with Banxico code `code` (e.g. '40012'), or undefined. */
export function institutionBySpeiCode(code: string): Institution | undefined {
  return bySpei.get(code);
}

/** The institution whose CLABEs start with the 3-digit `prefix` (e.g. '012'), or undefined. */
export function institutionByClabePrefix(prefix: string): Institution | undefined {
  return byClabe.get(prefix);
}
