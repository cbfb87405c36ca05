export {
  acknowledgeCallback,
  CALLBACK_SUCCESS,
  type CallbackListenerOptions,
  callbackListener,
  isPayOrderCallback,
  isTransferCallback,
  verifyCallback,
} from './callback.js';
export { canonicalString, jcs } from './canonical.js';
export { AgentpayClient, type AgentpayClientOptions, isSuccess, Paths, unwrap } from './client.js';
export {
  AgentpayApiError,
  AgentpayError,
  AgentpayHttpError,
  AgentpayNetworkError,
  AgentpaySignatureError,
  ResultCode,
  type ResultCodeName,
} from './errors.js';
export { amountToCentavos, centavosToAmount, parsePayBody } from './money.js';
export { type KeyInput, loadPrivateKey, loadPublicKey, signParams, verifySignature } from './signing.js';
export { formatApiTime } from './time.js';
export type * from './types.js';
