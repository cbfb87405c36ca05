import { randomBytes } from 'node:crypto';
import { type Stack, type StackOptions, startStack } from '@agentpay/stack';
import { natsUrl, postgresUrl } from '@agentpay/testing';

/** Starts the whole stack as real processes on random ports with databases of its own. */
export async function startTestStack(options: Partial<StackOptions> = {}): Promise<Stack> {
  return startStack({
    postgresUrl: await postgresUrl(),
    natsUrl: await natsUrl(),
    databasePrefix: `t_${randomBytes(4).toString('hex')}`,
    ports: 'random',
    output: process.env['STACK_OUTPUT'] === 'pretty' ? 'pretty' : 'silent',
    ...options,
    env: {
      PLATFORM_PRIVATE_KEY_FILE: `/tmp/agentpay-test-${randomBytes(4).toString('hex')}/platform-key.pem`,
      NOTIFY_ALLOW_PRIVATE: 'true',
      ...options.env,
    },
  });
}
