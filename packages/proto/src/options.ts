import type { Options } from '@grpc/proto-loader';

/** proto-loader options shared by the runtime loader and the type generator (scripts/proto-gen.ts). */
export const LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
} as const satisfies Options;
