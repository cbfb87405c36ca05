import type { Command } from './command.js';
import * as people from './people.js';

const TOKEN_FILE = '$XDG_CONFIG_HOME/agentpay/credentials.json, else ~/.config/agentpay/credentials.json';

/** Signing in and out, and who the commands act as. */
export const ACCOUNT_COMMANDS: Record<string, Command> = {
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
};
