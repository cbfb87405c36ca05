import type { ParseArgsConfig } from 'node:util';
import type * as commands from './commands.js';

// One entry of the command table: the *.commands.ts files list them by group, cli.ts parses and runs them.

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  usage: string;
  summary: string;
  options: Options;
  run(ctx: commands.Context): Promise<void>;
  /** false: the command needs no one signed in (keygen, login, logout use no or their own token). */
  acts?: false;
}
