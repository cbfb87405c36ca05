export { type DebitCardError, luhnValid, validateDebitCard } from './card.js';
export { buildClabe, type ClabeError, clabeCheckDigit, validateClabe } from './clabe.js';
export {
  type Institution,
  institutionByClabePrefix,
  institutionBySpeiCode,
  institutions,
} from './institutions.js';
