import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { transfersEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the transfers database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'transfers', schema: transfersEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('transfers migrate', migrate);
