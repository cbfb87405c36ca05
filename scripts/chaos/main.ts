// `npm run chaos [--ci] [--replicas] [--bundle] [--seed N] [--workers N] [--rounds N] [--postgres terminate|private-cluster]`:
// one fault run (run.ts); prints its report and writes it, with every service's log, to .agentpay/chaos/.
// `--replicas` runs two processes of every service on a three-node NATS cluster. `--bundle` first bundles
// every service from the sources as they are now (`npm run bundle`) and runs the bundles, as the images and
// the test stacks do: they start without compiling TypeScript, which counts on a loaded machine. Exits 1
// when a check found a violation.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isEntryPoint } from '@agentpay/config';
import { REPO_ROOT } from '@agentpay/stack';
import { BUNDLED_SERVICES, bundleService } from '../../deploy/bundle.js';
import {
  type ChaosOptions,
  CI_OPTIONS,
  CI_REPLICAS_OPTIONS,
  FULL_OPTIONS,
  REPLICAS_OPTIONS,
} from './options.js';
import { formatReport } from './report.js';
import { runChaos } from './run.js';

function parseArgs(argv: string[]): ChaosOptions {
  // --ci and --replicas pick the base options whatever their order; the other flags then adjust them.
  const ci = argv.includes('--ci');
  const replicas = argv.includes('--replicas');
  const options = {
    ...(replicas ? (ci ? CI_REPLICAS_OPTIONS : REPLICAS_OPTIONS) : ci ? CI_OPTIONS : FULL_OPTIONS),
    seed: FULL_OPTIONS.seed,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    switch (flag) {
      case '--ci':
      case '--replicas':
        break;
      case '--bundle':
        options.entry = 'bundle';
        break;
      case '--seed':
        options.seed = Number(value());
        break;
      case '--workers':
        options.workers = Number(value());
        break;
      case '--rounds':
        options.rounds = Number(value());
        break;
      case '--postgres':
        options.postgres = value() === 'terminate' ? 'terminate' : 'private-cluster';
        break;
      default:
        throw new Error(
          `unknown option ${flag}; use --ci, --replicas, --bundle, --seed N, --workers N, --rounds N, --postgres terminate|private-cluster`,
        );
    }
  }
  return options;
}

if (isEntryPoint(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  const outDir = join(REPO_ROOT, '.agentpay', 'chaos');
  mkdirSync(outDir, { recursive: true });
  const serviceLines: string[] = [];
  if (options.entry === 'bundle')
    await Promise.all(BUNDLED_SERVICES.map((service) => bundleService(service)));
  const report = await runChaos({
    ...options,
    log: (line) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`),
    serviceLog: (service, line) => serviceLines.push(`${service} ${line}`),
  }).catch((err: unknown) => {
    const file = join(outDir, `failed-${Date.now()}.services.log`);
    writeFileSync(file, `${serviceLines.join('\n')}\n`);
    process.stderr.write(`\nthe chaos run itself failed; service logs: ${file}\n`);
    throw err;
  });
  const base = join(outDir, `${report.startedAt.replaceAll(':', '-')}-${report.prefix}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.services.log`, `${serviceLines.join('\n')}\n`);
  process.stdout.write(
    `\n${formatReport(report)}\n\nreport: ${base}.json\nservice logs: ${base}.services.log\n`,
  );
  const violated = Object.values(report.violations).some((v) => v.length > 0);
  process.exit(violated ? 1 : 0);
}
