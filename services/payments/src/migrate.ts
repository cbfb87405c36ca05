import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { paymentsEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the payments database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'payments', schema: paymentsEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('payments migrate', migrate);
