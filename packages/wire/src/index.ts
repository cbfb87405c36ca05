export { canonicalString, jcs } from './canonical.js';
export { AppError, type Code, type CodeName, Codes, codeNameOf, isAppError } from './codes.js';
export {
  createEnvelopeSigner,
  type Envelope,
  type EnvelopeSigner,
  type EnvelopeSignerOptions,
  verifyEnvelope,
} from './envelope.js';
export { requestFingerprint } from './fingerprint.js';
export {
  encodeListCursor,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  LIST_MAX_SEARCH,
  type ListPage,
  type ListRequest,
  readListRequest,
} from './list-request.js';
export {
  type AmountResult,
  centavosToAmount,
  type FeeRate,
  feeFor,
  MAX_AMOUNT_CENTAVOS,
  parseAmount,
} from './money.js';
export { loadPlatformKey, type PlatformKey } from './platform-key.js';
export {
  generateKeyPair,
  KeyFormatError,
  parsePrivateKey,
  parsePublicKey,
  signObject,
  signObjectAsync,
  verifyObject,
} from './signing.js';
export { formatWireTime, parseWireTime } from './time.js';
