import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { complianceEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the compliance database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'compliance', schema: complianceEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('compliance migrate', migrate);
