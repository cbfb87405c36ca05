import { type ParseArgsConfig, parseArgs } from 'node:util';
import * as commands from './commands.js';
import { type Credentials, credentialsPath, readCredentials, sameUrl } from './credentials.js';
import { type ApiTarget, CliError, Exit, PendingApproval } from './http.js';
import * as people from './people.js';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  usage: string;
  summary: string;
  options: Options;
  run(ctx: commands.Context): Promise<void>;
  /** false: the command needs no one signed in (keygen, login, logout use no or their own token). */
  acts?: false;
}

const TOKEN_FILE = '$XDG_CONFIG_HOME/agentpay/credentials.json, else ~/.config/agentpay/credentials.json';
const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';

const GLOBAL_OPTIONS: Options = {
  help: { type: 'boolean', short: 'h' },
  'admin-url': { type: 'string' },
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
  login: {
    usage: 'login [--email <email>] [--password-stdin] [--code <totp>] [--expires-in-days <1-90>]',
    summary: `Sign in as yourself (email, password, authenticator code; asked for when not given; the password also from ADMIN_PASSWORD) and store a personal token for every later command (${TOKEN_FILE}, mode 600; default 30 days).`,
    options: {
      email: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      code: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
    run: people.login,
    acts: false,
  },
  logout: {
    usage: 'logout',
    summary: 'Revoke the stored personal token and delete the credentials file.',
    options: {},
    run: people.logout,
    acts: false,
  },
  whoami: {
    usage: 'whoami',
    summary: 'Who the commands act as: the person, their roles, and the token.',
    options: {},
    run: people.whoami,
  },
  keygen: {
    usage: 'keygen --out <dir> [--force]',
    summary:
      'Generate a merchant RSA-2048 key pair: <dir>/private-key.pem (mode 600) and <dir>/public-key.pem.',
    options: { out: { type: 'string' }, force: { type: 'boolean' } },
    run: commands.keygen,
    acts: false,
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
    summary: 'Callback deliveries of an order and their attempts.',
    options: { 'order-no': { type: 'string' } },
    run: commands.callbacksList,
  },
  'callbacks resend': {
    usage: 'callbacks resend <deliveryId>',
    summary: 'Send a callback delivery again now.',
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
  'users invite': {
    usage: 'users invite --email <email> [--name <name>] --role <role>...',
    summary:
      'Invite an operator (owner): prints the invitation link (72 h, once) where they set a password and enrol TOTP.',
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string', multiple: true },
    },
    run: people.usersInvite,
  },
  'users list': {
    usage: 'users list',
    summary: 'The operators: roles, status, lock.',
    options: {},
    run: people.usersList,
  },
  'users roles': {
    usage: 'users roles <id|email> --role <role>...',
    summary: 'Replace an operator’s roles (owner).',
    options: { role: { type: 'string', multiple: true } },
    run: people.usersRoles,
  },
  'users disable': {
    usage: 'users disable <id|email>',
    summary: 'Disable an operator at once: every session and token they hold ends.',
    options: {},
    run: people.usersDisable,
  },
  'users enable': {
    usage: 'users enable <id|email>',
    summary: 'Enable a disabled operator again.',
    options: {},
    run: people.usersEnable,
  },
  'users unlock': {
    usage: 'users unlock <id|email>',
    summary: 'Unlock an operator locked out by ten failed sign-ins.',
    options: {},
    run: people.usersUnlock,
  },
  'audit list': {
    usage:
      'audit list [--actor <id>] [--action <action>] [--target <t>] [--mchNo <mchNo>] [--from <iso>] [--to <iso>] [--cursor <c>] [--limit <n>]',
    summary: 'The audit log, newest first, a page at a time (owner, auditor).',
    options: {
      actor: { type: 'string' },
      action: { type: 'string' },
      target: { type: 'string' },
      mchNo: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      cursor: { type: 'string' },
      limit: { type: 'string' },
    },
    run: people.auditList,
  },
  'audit verify': {
    usage: 'audit verify',
    summary: 'Prove the audit log’s hash chain; exit 1 when it is broken.',
    options: {},
    run: people.auditVerify,
  },
  'audit export': {
    usage: 'audit export [--from <iso>] [--to <iso>] [--out <file>]',
    summary: 'The audit log as CSV, to stdout or a new file (mode 600).',
    options: { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } },
    run: people.auditExport,
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

Who acts: you. \`login\` once stores a personal token (mode 600) in
  $XDG_CONFIG_HOME/agentpay/credentials.json, else ~/.config/agentpay/credentials.json;
every command acts as you with it, audited under your name. A command that needs four eyes prints its
pending approval and exits 0: a second person approves it (approvals approve <id>).

Options for every command:
  --admin-url <url>  admin API (gateway admin port); env ADMIN_URL; default where you logged in, else
                     http://127.0.0.1:8081
  --token <token>    act with this token instead of your login; env ADMIN_TOKEN. ADMIN_TOKEN acts as
                     system:dev outside production; production refuses it except to create the first owner
  -h, --help         this help, or a command's

Output: API results as JSON on stdout; messages on stderr.
Exit codes: 0 done (or waiting for a second person), 1 the API refused or failed (its message is printed),
            2 wrong command line, 3 the API could not be reached.
`;
}

function commandHelp(command: Command): string {
  return `Usage: npm run admin -- ${command.usage}\n\n${command.summary}\n`;
}

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Asks on the terminal (hidden: without echo); absent when stdin is not a terminal. */
  prompt?: (question: string, hidden: boolean) => Promise<string>;
  /** All of stdin (login --password-stdin). */
  readStdin?: () => Promise<string>;
}

/**
 * Who the command acts as (CONTRACT.md section 17): a token given explicitly (--token, else ADMIN_TOKEN),
 * said on stderr; else the person who logged in, from the credentials file. Never a default token.
 */
function actor(
  values: commands.Context['values'],
  env: NodeJS.ProcessEnv,
  credentialsFile: string,
  acts: boolean,
  io: Io,
): Pick<ApiTarget, 'baseUrl' | 'token' | 'noToken' | 'unauthorizedHint'> {
  const explicitUrl = (values['admin-url'] as string | undefined) ?? (env['ADMIN_URL'] || undefined);
  const flag = values['token'] as string | undefined;
  const explicit = flag ?? (env['ADMIN_TOKEN'] || undefined);
  if (explicit !== undefined) {
    const from = flag !== undefined ? '--token' : 'ADMIN_TOKEN';
    if (acts) {
      io.stderr(
        explicit.startsWith('apt_')
          ? `acting with the personal token of ${from}, not your login\n`
          : `acting as system:dev with ${from}, not as a person (production refuses it except to create the first owner)\n`,
      );
    }
    return {
      baseUrl: explicitUrl ?? DEFAULT_ADMIN_URL,
      token: explicit,
      unauthorizedHint: `the token of ${from} was refused: in production ADMIN_TOKEN only creates the first owner; sign in with npm run admin -- login`,
    };
  }
  let stored: Credentials | undefined;
  let problem: string | undefined;
  try {
    stored = acts ? readCredentials(credentialsFile) : undefined;
  } catch (err) {
    problem = (err as Error).message;
  }
  const relogin = `npm run admin -- login${explicitUrl ? ` --admin-url ${explicitUrl}` : ''}`;
  if (stored && explicitUrl && !sameUrl(explicitUrl, stored.adminUrl)) {
    problem = `you are signed in to ${stored.adminUrl}, not ${explicitUrl}: ${relogin}`;
    stored = undefined;
  } else if (stored && Date.parse(stored.expiresAt) <= Date.now()) {
    problem = `your token expired at ${stored.expiresAt}: ${relogin}`;
    stored = undefined;
  }
  return {
    baseUrl: explicitUrl ?? stored?.adminUrl ?? DEFAULT_ADMIN_URL,
    token: stored?.token,
    noToken:
      problem ??
      `not signed in: ${relogin} (outside production ADMIN_TOKEN=dev-admin-token acts as system:dev)`,
    unauthorizedHint: `the token of ${stored?.email ?? 'your login'} was refused (revoked, or the person disabled): ${relogin}`,
  };
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
  const credentialsFile = credentialsPath(env);
  const ctx: commands.Context = {
    admin: {
      name: 'admin API',
      ...actor(values, env, credentialsFile, command.acts !== false, io),
      missingHint: name.startsWith('routes ')
        ? 'the routes admin API is not available on this admin API yet'
        : undefined,
    },
    out: (text) => io.stdout(`${text}\n`),
    write: (text) => io.stdout(text),
    err: (text) => io.stderr(`${text}\n`),
    values,
    positionals: parsed.positionals,
    env,
    credentialsFile,
    prompt: io.prompt,
    readStdin: io.readStdin ?? (async () => ''),
  };
  try {
    await command.run(ctx);
    return Exit.OK;
  } catch (err) {
    if (err instanceof PendingApproval) {
      // Four eyes: taken, not done. The answer as the API gave it on stdout; what to do next on stderr.
      const { id, summary } = err.body.approval;
      io.stdout(`${JSON.stringify(err.body, null, 2)}\n`);
      io.stderr(
        `approval ${id} pending${summary ? `: ${summary}` : ''}\nwaiting for a second person: npm run admin -- approvals approve ${id}\n`,
      );
      return Exit.OK;
    }
    if (err instanceof CliError) {
      io.stderr(`error: ${err.message}\n${err.exitCode === Exit.USAGE ? `\n${commandHelp(command)}` : ''}`);
      return err.exitCode;
    }
    io.stderr(`error: ${(err as Error).stack ?? String(err)}\n`);
    return Exit.FAILED;
  }
}
