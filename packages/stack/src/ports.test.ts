import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports.js';

describe('freePort', () => {
  it('hands out distinct, bindable ports below the kernel ephemeral range', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(new Set(ports).size).toBe(40);
    for (const port of ports) expect(port).toBeLessThan(low);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '0.0.0.0', resolve));
    await new Promise((resolve) => server.close(resolve));
  });

  it('skips a port something already listens on', async () => {
    const first = await freePort();
    // Hold the next ports of the walk: freePort must step past them.
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(first + 1, '127.0.0.1', resolve));
    try {
      const next = await freePort();
      expect(next).not.toBe(first + 1);
      expect(next).not.toBe(first);
    } finally {
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
