import type { Stack } from '@agentpay/stack';

/** Callback delivery benchmark; filled in once the notifier lands. */
export async function runCallbackBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
  prefix: string;
}): Promise<void> {
  opts.log('## Callbacks');
  opts.log();
  opts.log('Not measured yet.');
}
