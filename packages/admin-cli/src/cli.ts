import { parseArgs } from 'node:util';
import { ACCOUNT_COMMANDS } from './account.commands.js';
import { APPROVALS_COMMANDS } from './approvals.commands.js';
import { BOOKS_COMMANDS } from './books.commands.js';
import type { Command, Options } from './command.js';
import type * as commands from './commands.js';
import { credentialsPath } from './credentials.js';
import { CliError, Exit, PendingApproval } from './http.js';
import { MERCHANT_COMMANDS } from './merchants.commands.js';
import { PEOPLE_COMMANDS } from './people.commands.js';
import { ROUTES_COMMANDS } from './routes.commands.js';
import { actor } from './who-acts.js';

const GLOBAL_OPTIONS: Options = {
  help: { type: 'boolean', short: 'h' },
  'admin-url': { type: 'string' },
  token: { type: 'string' },
};

const COMMANDS: Record<string, Command> = {
  ...ACCOUNT_COMMANDS,
  ...MERCHANT_COMMANDS,
  ...BOOKS_COMMANDS,
  ...APPROVALS_COMMANDS,
  ...PEOPLE_COMMANDS,
  ...ROUTES_COMMANDS,
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
