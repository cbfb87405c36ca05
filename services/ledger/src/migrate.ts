import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { ledgerEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the ledger database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'ledger', schema: ledgerEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('ledger migrate', migrate);
