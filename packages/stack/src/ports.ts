import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// A port handed to a child process is free when it is checked and taken only later, when the child binds
// it. Two things can take it in between, and both failed CI runs:
// - the kernel: `listen(0)` and every outgoing connection (a Postgres or NATS client) take ports from the
//   ephemeral range, so a port the OS picked for us is one the next connection may get;
// - another picker: parallel test files, or two picks in one stack, that get the same port back.
// So ports come from below the ephemeral range, where the kernel never picks on its own, from a window
// of its own for each test worker (or process), walked in order, and never twice from one process.

const LOWEST = 10_000;
const WINDOWS = 32;

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > LOWEST + WINDOWS * 100) return low;
  } catch {
    // Not Linux: the IANA dynamic range starts at 49152, and 32768 is below it and Linux's default.
  }
  return 32_768;
}

const windowSize = Math.floor((ephemeralLow() - LOWEST) / WINDOWS);
// Vitest numbers its workers from 1; anything else (npm start, the chaos and bench scripts) takes a window
// from its process id, in the upper half so it does not meet a test worker's.
const poolId = Number(process.env.VITEST_POOL_ID);
const slot =
  Number.isInteger(poolId) && poolId > 0
    ? poolId % (WINDOWS / 2)
    : WINDOWS / 2 + (process.pid % (WINDOWS / 2));
const windowStart = LOWEST + slot * windowSize;
// A random start, so consecutive test files in one worker do not walk the same ports.
let cursor = Math.floor(Math.random() * windowSize);
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    // The wildcard address: it conflicts with a listener on any address, as the services bind.
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A TCP port free a moment ago, outside the kernel's ephemeral range, never handed out before by this process. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < windowSize; tried++) {
    const port = windowStart + (cursor++ % windowSize);
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port left in ${windowStart}-${windowStart + windowSize - 1}`);
}
