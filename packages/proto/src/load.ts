import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { ProtoGrpcType as ComplianceProto } from './generated/compliance.js';
import type { ProtoGrpcType as EventsProto } from './generated/events.js';
import type { ProtoGrpcType as LedgerProto } from './generated/ledger.js';
import type { ProtoGrpcType as PaymentsProto } from './generated/payments.js';
import type { ProtoGrpcType as RouterProto } from './generated/router.js';
import type { ProtoGrpcType as TransfersProto } from './generated/transfers.js';
import { LOADER_OPTIONS } from './options.js';

/** Directory holding the .proto sources; PROTO_DIR overrides it for bundled deployments. */
export const PROTO_DIR =
  process.env['PROTO_DIR'] ?? fileURLToPath(new URL('../../../proto', import.meta.url));

export type AgentpayProtos = PaymentsProto &
  TransfersProto &
  RouterProto &
  LedgerProto &
  EventsProto &
  ComplianceProto;

let cached: AgentpayProtos | undefined;

/** Loads every agentpay contract once per process, with the options the generated types assume. */
export function loadProtos(): AgentpayProtos {
  if (!cached) {
    const definition = loadSync(
      [
        'payments/v1/payments.proto',
        'transfers/v1/transfers.proto',
        'router/v1/router.proto',
        'ledger/v1/ledger.proto',
        'compliance/v1/compliance.proto',
        'events/v1/events.proto',
      ],
      { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] },
    );
    cached = grpc.loadPackageDefinition(definition) as unknown as AgentpayProtos;
  }
  return cached;
}
