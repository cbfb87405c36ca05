import type { Command } from './command.js';
import * as commands from './commands.js';

/** Balances, adjustments, settlement, the ledger check, reconciliation and its discrepancies. */
export const BOOKS_COMMANDS: Record<string, Command> = {
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
};
