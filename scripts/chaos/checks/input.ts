import type { ChaosOptions } from '../options.js';
import type { CreateRecord, DepositRecord, Receipt, RequestRecord } from '../records.js';
import type { FaultRecord } from '../report.js';
import type { Snapshot } from '../snapshot.js';

/** Everything the checks judge: what the load did and saw, and the stores once the platform settled. */
export interface CheckInput {
  options: ChaosOptions;
  snap: Snapshot;
  creates: CreateRecord[];
  deposits: DepositRecord[];
  requests: RequestRecord[];
  receipts: Receipt[];
  faults: FaultRecord[];
  unexpected: string[];
  finalQueries: FinalQuery[];
}

/** The gateway's answer to a query for one accepted order, once the platform settled. */
export interface FinalQuery {
  /** `mchNo|bizNo` */
  key: string;
  code?: number;
  number?: string;
  status?: string;
  outcome: string;
}
