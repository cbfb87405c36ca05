import { BUNDLED_SERVICES, bundleService } from '../../deploy/bundle.js';
import { testServiceEntry } from './stack.js';

/**
 * vitest globalSetup of the integration tests: bundles every service (`npm run bundle`, as the images run
 * them) from the sources as they are now, once, before any test starts a stack. A stack of bundles starts
 * about 2 s sooner than one loading its TypeScript through tsx (3.8 s against 5.6 s on a quiet machine),
 * across some forty stack starts and every service restart of the fault runs. AGENTPAY_TEST_SERVICES=source
 * runs the sources instead (a debugger's breakpoints in src/), and skips this.
 */
export default async function setup(): Promise<void> {
  if (testServiceEntry() === 'source') return;
  const started = performance.now();
  await Promise.all(BUNDLED_SERVICES.map((service) => bundleService(service)));
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`bundled ${BUNDLED_SERVICES.length} services for the test stacks in ${ms} ms\n`);
}
