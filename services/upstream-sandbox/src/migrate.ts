import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { sandboxEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the sandbox database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'upstream-sandbox', schema: sandboxEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('upstream-sandbox migrate', migrate);
