// Entry of `npm run admin -- <command>` (tsx packages/admin-cli/src/main.ts).
import { createInterface } from 'node:readline';
import { run } from './cli.js';
import { CliError } from './http.js';

/** Asks on the terminal, on stderr so that stdout stays the command's result; hidden: nothing is echoed. */
function prompt(question: string, hidden: boolean): Promise<string> {
  const input = process.stdin;
  if (!hidden) {
    return new Promise((resolve) => {
      const rl = createInterface({ input, output: process.stderr, terminal: true });
      rl.question(question, (answer) => {
        rl.close();
        resolve(answer);
      });
    });
  }
  return new Promise((resolve, reject) => {
    process.stderr.write(question);
    let value = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new CliError('cancelled', 130));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
  });
}

async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

process.exitCode = await run(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  ...(process.stdin.isTTY ? { prompt } : {}),
  readStdin,
});
