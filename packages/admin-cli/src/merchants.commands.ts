import type { Command, Options } from './command.js';
import * as commands from './commands.js';

const fee: Options = {
  'fee-bps': { type: 'string' },
  'fee-fixed-centavos': { type: 'string' },
  'settle-type': { type: 'string' },
  'app-id': { type: 'string', multiple: true },
};

/** Merchants' keys and settings, the platform key, and callback deliveries. */
export const MERCHANT_COMMANDS: Record<string, Command> = {
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
};
