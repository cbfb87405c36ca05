import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { routerEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the router database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'upstream-router', schema: routerEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('upstream-router migrate', migrate);
