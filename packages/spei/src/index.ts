export { type DebitCardError, luhnValid, validateDebitCard } from './card.js';
export { buildClabe, type ClabeError, clabeCheckDigit, validateClabe } from './clabe.js';
export {
  type Institution,
  institutionByClabePrefix,
  institutionBySpeiCode,
  institutions,
} from './institutions.js';
export { STP_DEMO_PASSPHRASE, STP_DEMO_PRIVATE_KEY_PEM } from './stp-demo-key.js';
