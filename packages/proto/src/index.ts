export * from './actor.js';
export { decodeEvent } from './decode.js';
export type * from './generated/index.js';
export * from './grpc.js';
export * from './load.js';
export { LOADER_OPTIONS } from './options.js';
export { isTraceparent, traceIdOf, traceparentOr } from './trace.js';
