import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { gatewayEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the gateway database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'gateway', schema: gatewayEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('gateway migrate', migrate);
