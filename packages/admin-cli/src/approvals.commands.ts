import type { Command } from './command.js';
import * as commands from './commands.js';

/** Four eyes: requests that need a second person. */
export const APPROVALS_COMMANDS: Record<string, Command> = {
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
};
