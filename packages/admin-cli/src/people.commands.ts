import type { Command } from './command.js';
import * as people from './people.js';

/** The operators (users) and the audit log. */
export const PEOPLE_COMMANDS: Record<string, Command> = {
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
};
