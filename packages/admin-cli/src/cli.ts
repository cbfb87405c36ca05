import { type ParseArgsConfig, parseArgs } from 'node:util';
import * as commands from './commands.js';
import { CliError, Exit } from './http.js';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  usage: string;
  summary: string;
  options: Options;
  run(ctx: commands.Context): Promise<void>;
}

const GLOBAL_OPTIONS: Options = {
  help: { type: 'boolean', short: 'h' },
  'admin-url': { type: 'string' },
  'notifier-url': { type: 'string' },
  token: { type: 'string' },
};

const fee: Options = {
  'fee-bps': { type: 'string' },
  'fee-fixed-centavos': { type: 'string' },
  'settle-type': { type: 'string' },
  'app-id': { type: 'string', multiple: true },
};
const routeBody: Options = { body: { type: 'string' }, file: { type: 'string' } };
const ROUTES_NOTE = 'requires the routes admin API';

const COMMANDS: Record<string, Command> = {
  keygen: {
    usage: 'keygen --out <dir> [--force]',
    summary:
      'Generate a merchant RSA-2048 key pair: <dir>/private-key.pem (mode 600) and <dir>/public-key.pem.',
    options: { out: { type: 'string' }, force: { type: 'boolean' } },
    run: commands.keygen,
  },
  'merchant create': {
    usage:
      'merchant create --mch-no <mchNo> --name <name> --public-key <file> [--app-id <id>]... [--fee-bps <n>] [--fee-fixed-centavos <n>] [--settle-type REALTIME|D+1|D+2|D+3]',
    summary:
      'Register a merchant with its public key. Fee: percent in basis points (60 = 0.60 %) plus fixed centavos.',
    options: {
      'mch-no': { type: 'string' },
      name: { type: 'string' },
      'public-key': { type: 'string' },
      ...fee,
    },
    run: commands.merchantCreate,
  },
  'merchant show': {
    usage: 'merchant show <mchNo>',
    summary: 'Show a merchant: status, apps, fee rate, keys by id and fingerprint.',
    options: {},
    run: commands.merchantShow,
  },
  'merchant enable': {
    usage: 'merchant enable <mchNo>',
    summary: 'Enable a merchant.',
    options: {},
    run: commands.merchantStatus('enabled'),
  },
  'merchant disable': {
    usage: 'merchant disable <mchNo>',
    summary: 'Disable a merchant: its requests answer 20051 until enabled again.',
    options: {},
    run: commands.merchantStatus('disabled'),
  },
  'merchant update': {
    usage:
      'merchant update <mchNo> [--name <name>] [--app-id <id>]... [--fee-bps <n>] [--fee-fixed-centavos <n>] [--settle-type <t>]',
    summary: 'Change a merchant’s name, apps (the list is replaced), fee rate or settlement type.',
    options: { name: { type: 'string' }, ...fee },
    run: commands.merchantUpdate,
  },
  'merchant add-key': {
    usage: 'merchant add-key <mchNo> --public-key <file>',
    summary: 'Key rotation, step 1: add a second active public key (both verify).',
    options: { 'public-key': { type: 'string' } },
    run: commands.merchantAddKey,
  },
  'merchant revoke-key': {
    usage: 'merchant revoke-key <mchNo> --key-id <id>',
    summary: 'Key rotation, step 2: revoke the old key by id (from merchant show).',
    options: { 'key-id': { type: 'string' } },
    run: commands.merchantRevokeKey,
  },
  'platform-key': {
    usage: 'platform-key [--out <file>]',
    summary: 'Print the platform public key (PEM), or write it to a file, to hand to merchants.',
    options: { out: { type: 'string' } },
    run: commands.platformKey,
  },
  'callbacks list': {
    usage: 'callbacks list --order-no <orderNo|transferNo>',
    summary: 'Callback deliveries of an order and their attempts (notifier admin API).',
    options: { 'order-no': { type: 'string' } },
    run: commands.callbacksList,
  },
  'callbacks resend': {
    usage: 'callbacks resend <deliveryId>',
    summary: 'Send a callback delivery again now (notifier admin API).',
    options: {},
    run: commands.callbacksResend,
  },
  balance: {
    usage: 'balance <mchNo>',
    summary: 'A merchant’s balance in pesos: available, pending (not settled yet) and frozen.',
    options: {},
    run: commands.balance,
  },
  adjust: {
    usage: 'adjust <mchNo> --amount <pesos> --reason <text> --reference <ref>',
    summary:
      'Move pesos into (+) or out of (−, written --amount=-20) a merchant’s available balance; the same --reference again changes nothing.',
    options: { amount: { type: 'string' }, reason: { type: 'string' }, reference: { type: 'string' } },
    run: commands.adjust,
  },
  settle: {
    usage: 'settle [--until "yyyy-MM-dd HH:mm:ss"]',
    summary:
      'Settle every pay-in due by --until (platform wall clock; default now). Outside production --until may be in the future.',
    options: { until: { type: 'string' } },
    run: commands.settle,
  },
  'ledger-check': {
    usage: 'ledger-check',
    summary:
      'Verify the books (balanced entries, balances, no part below zero); exit 1 when a problem is found.',
    options: {},
    run: commands.ledgerCheck,
  },
  reconcile: {
    usage: 'reconcile <yyyy-MM-dd> [--route <routeId>]',
    summary:
      'Reconcile a day (Mexico City) against the channel statements, every route or one; prints lines, matched, pending and discrepancies per route.',
    options: { route: { type: 'string' } },
    run: commands.reconcile,
  },
  'discrepancies list': {
    usage:
      'discrepancies list [--state open|resolved] [--kind <kind>] [--day <yyyy-MM-dd>] [--limit <n>] [--after <id>]',
    summary:
      'List reconciliation discrepancies, newest kinds first as the ledger pages them (amounts in pesos).',
    options: {
      state: { type: 'string' },
      kind: { type: 'string' },
      day: { type: 'string' },
      limit: { type: 'string' },
      after: { type: 'string' },
    },
    run: commands.discrepanciesList,
  },
  'discrepancies show': {
    usage: 'discrepancies show <id>',
    summary: 'One discrepancy with both sides (platform and channel) and its resolution.',
    options: {},
    run: commands.discrepanciesShow,
  },
  'discrepancies resolve': {
    usage: 'discrepancies resolve <id> --action apply|credit|return --reason <text>',
    summary:
      'Resolve a discrepancy: apply (a deposit the platform missed: the order is synced and pays), credit (unmatched money to the order’s merchant), return (unmatched money back to the payer).',
    options: { action: { type: 'string' }, reason: { type: 'string' }, operator: { type: 'string' } },
    run: commands.discrepanciesResolve,
  },
  'approvals list': {
    usage: 'approvals list [--mine requested|waiting] [--state <state>] [--limit <n>] [--before <id>]',
    summary:
      'Four eyes: requests that need a second person; --mine waiting: what waits for your approval, requested: what you asked for.',
    options: {
      mine: { type: 'string' },
      state: { type: 'string' },
      limit: { type: 'string' },
      before: { type: 'string' },
    },
    run: commands.approvalsList,
  },
  'approvals show': {
    usage: 'approvals show <id>',
    summary: 'One request for four eyes: what it does, who asked, who decided, and its result.',
    options: {},
    run: commands.approvalsShow,
  },
  'approvals approve': {
    usage: 'approvals approve <id>',
    summary:
      'Approve another person’s request (approver or owner): it is executed at once, exactly as asked.',
    options: {},
    run: commands.approvalsApprove,
  },
  'approvals reject': {
    usage: 'approvals reject <id> --reason <text>',
    summary: 'Reject a request (or withdraw your own): nothing is executed.',
    options: { reason: { type: 'string' } },
    run: commands.approvalsReject,
  },
  'routes list': {
    usage: 'routes list',
    summary: `List upstream routes (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesList,
  },
  'routes show': {
    usage: 'routes show <routeId>',
    summary: `One route with its merchants and breaker state (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesShow,
  },
  'routes create': {
    usage: 'routes create (--body <json> | --file <route.json>)',
    summary: `Create an upstream route (${ROUTES_NOTE}).`,
    options: routeBody,
    run: commands.routesCreate,
  },
  'routes update': {
    usage: 'routes update <routeId> (--body <json> | --file <patch.json>)',
    summary: `Change any field of a route but its id, e.g. --body '{"weight":0}' (${ROUTES_NOTE}).`,
    options: routeBody,
    run: commands.routesUpdate,
  },
  'routes enable': {
    usage: 'routes enable <routeId>',
    summary: `Put a route back into selection (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesEnabled(true),
  },
  'routes disable': {
    usage: 'routes disable <routeId>',
    summary: `Take a route out of selection; its open orders still finish on it (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesEnabled(false),
  },
  'routes merchants': {
    usage: 'routes merchants <routeId> (--mch-no <mchNo>... | --none)',
    summary: `Replace the merchants a route serves when its merchantScope is list (${ROUTES_NOTE}).`,
    options: { 'mch-no': { type: 'string', multiple: true }, none: { type: 'boolean' } },
    run: commands.routesMerchants,
  },
  'routes bind': {
    usage: 'routes bind <routeId> --mch-no <mchNo>',
    summary: `Bind one merchant to a route (${ROUTES_NOTE}).`,
    options: { 'mch-no': { type: 'string' } },
    run: commands.routesBinding(true),
  },
  'routes unbind': {
    usage: 'routes unbind <routeId> --mch-no <mchNo>',
    summary: `Unbind one merchant from a route (${ROUTES_NOTE}).`,
    options: { 'mch-no': { type: 'string' } },
    run: commands.routesBinding(false),
  },
};

/** Words that start two-word commands (`merchant create`, `discrepancies list`, …), from the table itself. */
const GROUPS = new Set(
  Object.keys(COMMANDS).flatMap((name) => (name.includes(' ') ? [name.split(' ')[0]!] : [])),
);

export function helpText(): string {
  const width = 30;
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`);
  return `agentpay admin CLI: operators' commands over the admin APIs.

Usage: npm run admin -- <command> [options]
       npm run admin -- <command> --help

Commands:
${lines.join('\n')}

Options for every command:
  --admin-url <url>     admin API (gateway admin port); env ADMIN_URL, default http://127.0.0.1:8081
  --notifier-url <url>  notifier admin API (callbacks); env NOTIFIER_URL, default http://127.0.0.1:8082
  --token <token>       bearer token of both; env ADMIN_TOKEN, default dev-admin-token
  -h, --help            this help, or a command's

Output: API results as JSON on stdout; messages on stderr.
Exit codes: 0 done, 1 the API refused or failed (its message is printed), 2 wrong command line,
            3 the API could not be reached.
`;
}

function commandHelp(command: Command): string {
  return `Usage: npm run admin -- ${command.usage}\n\n${command.summary}\n`;
}

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs one command line; answers the exit code. Never throws. */
export async function run(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(helpText());
    return first === undefined ? Exit.USAGE : Exit.OK;
  }
  const name =
    GROUPS.has(first) && second !== undefined && !second.startsWith('-') ? `${first} ${second}` : first;
  const command = COMMANDS[name];
  if (!command) {
    const known = GROUPS.has(first)
      ? Object.keys(COMMANDS).filter((c) => c.startsWith(`${first} `))
      : Object.keys(COMMANDS);
    io.stderr(`error: unknown command "${name}". Commands: ${known.join(', ')}\n`);
    return Exit.USAGE;
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv.slice(name.split(' ').length)],
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    io.stderr(`error: ${(err as Error).message}\n\n${commandHelp(command)}`);
    return Exit.USAGE;
  }
  if (parsed.values['help']) {
    io.stdout(commandHelp(command));
    return Exit.OK;
  }

  const values = parsed.values as commands.Context['values'];
  const token = (values['token'] as string | undefined) ?? env['ADMIN_TOKEN'] ?? 'dev-admin-token';
  const ctx: commands.Context = {
    admin: {
      name: 'admin API',
      baseUrl: (values['admin-url'] as string | undefined) ?? env['ADMIN_URL'] ?? 'http://127.0.0.1:8081',
      token,
      missingHint: name.startsWith('routes ')
        ? 'the routes admin API is not available on this admin API yet'
        : undefined,
    },
    notifier: {
      name: 'notifier admin API',
      baseUrl:
        (values['notifier-url'] as string | undefined) ?? env['NOTIFIER_URL'] ?? 'http://127.0.0.1:8082',
      token,
      missingHint: 'the notifier has no callback admin API here',
    },
    out: (text) => io.stdout(`${text}\n`),
    values,
    positionals: parsed.positionals,
  };
  try {
    await command.run(ctx);
    return Exit.OK;
  } catch (err) {
    if (err instanceof CliError) {
      io.stderr(`error: ${err.message}\n${err.exitCode === Exit.USAGE ? `\n${commandHelp(command)}` : ''}`);
      return err.exitCode;
    }
    io.stderr(`error: ${(err as Error).stack ?? String(err)}\n`);
    return Exit.FAILED;
  }
}
