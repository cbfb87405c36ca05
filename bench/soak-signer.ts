// The soak's signer: a child process (this file, forked with SOAK_SIGNER=1) that signs each CHUNK_S seconds of
// traffic shortly before it is due, so RSA signing neither blocks the sending loop nor runs ahead of reqTime's
// 300 s window.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '@agentpay/stack';
import { formatWireTime, parsePrivateKey, signObject } from '@agentpay/wire';
import { CLABE } from './setup.js';
import { AMOUNT, EXPIRE_S, PAID_SHARE, TZ } from './soak-settings.js';

export interface SignerInit {
  mchNo: string;
  privateKeyPem: string;
  sinkUrl: string;
}
export interface ChunkRequest {
  chunk: number;
  pays: number;
  transfers: number;
  queries: number;
}
export interface SignedChunk {
  chunk: number;
  pays: { body: string; paid: boolean }[];
  transfers: string[];
  queries: string[];
  signMs: number;
}

export function runSigner(): void {
  let init: SignerInit | undefined;
  let key: ReturnType<typeof parsePrivateKey> | undefined;
  let payIndex = 0;
  // The orders of the last two chunks: queries ask for those of the chunk before the last, 5 to 10 s old.
  let previous: string[][] = [[], []];
  process.on('message', (message: { init?: SignerInit } & Partial<ChunkRequest>) => {
    if (message.init) {
      init = message.init;
      key = parsePrivateKey(init.privateKeyPem);
      return;
    }
    const started = performance.now();
    const now = new Date();
    const reqTime = formatWireTime(now, TZ);
    const expiredTime = EXPIRE_S > 0 ? formatWireTime(new Date(now.getTime() + EXPIRE_S * 1000), TZ) : '';
    const sign = (body: Record<string, unknown>) => JSON.stringify({ ...body, sign: signObject(body, key!) });
    const common = () => ({ mchNo: init!.mchNo, reqTime, nonceStr: randomBytes(12).toString('hex') });
    const bizOrderNos: string[] = [];
    const pays = Array.from({ length: message.pays ?? 0 }, () => {
      // Evenly spread: order g is paid when the running count of paid orders steps up at it.
      const paid = Math.floor((payIndex + 1) * PAID_SHARE) > Math.floor(payIndex * PAID_SHARE);
      payIndex += 1;
      const bizOrderNo = `S${randomBytes(10).toString('hex')}`;
      bizOrderNos.push(bizOrderNo);
      const body: Record<string, unknown> = {
        ...common(),
        bizOrderNo,
        title: 'Soak order',
        method: 'mex_virtual_account',
        amount: AMOUNT,
        ...(expiredTime && { expiredTime }),
        ...(paid && { notifyUrl: `${init!.sinkUrl}/pay` }),
      };
      return { body: sign(body), paid };
    });
    const transfers = Array.from({ length: message.transfers ?? 0 }, () =>
      sign({
        ...common(),
        bizTransferNo: `ST${randomBytes(10).toString('hex')}`,
        amount: 1,
        title: 'Soak payout',
        reason: 'soak',
        payeeType: 'spei_transfer',
        payeeAccount: CLABE,
        payeeName: 'Ana Perez',
        notifyUrl: `${init!.sinkUrl}/transfer`,
      }),
    );
    // Queries ask for orders of the chunk before the last, created by the time they are sent.
    const older = previous[0]!;
    const queries =
      older.length === 0
        ? []
        : Array.from({ length: message.queries ?? 0 }, (_, i) =>
            sign({ ...common(), bizOrderNo: older[(i * 7919) % older.length]! }),
          );
    previous = [previous[1]!, bizOrderNos];
    const reply: SignedChunk = {
      chunk: message.chunk!,
      pays,
      transfers,
      queries,
      signMs: performance.now() - started,
    };
    process.send!(reply);
  });
}

if (process.env['SOAK_SIGNER'] === '1' && process.send) {
  process.on('disconnect', () => process.exit(0));
  runSigner();
}

/** The signer as a child process: chunks asked for ahead, answered in order. */
export function startSigner(init: SignerInit) {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, SOAK_SIGNER: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (chunk: SignedChunk) => void>();
  const asked = new Map<number, Promise<SignedChunk>>();
  let signMs = 0;
  child.on('message', (chunk: SignedChunk) => {
    signMs += chunk.signMs;
    waiting.get(chunk.chunk)?.(chunk);
    waiting.delete(chunk.chunk);
  });
  child.send({ init });
  return {
    ask(request: ChunkRequest): Promise<SignedChunk> {
      let promise = asked.get(request.chunk);
      if (!promise) {
        promise = new Promise<SignedChunk>((resolve) => waiting.set(request.chunk, resolve));
        asked.set(request.chunk, promise);
        child.send(request);
      }
      return promise;
    },
    take(chunk: number) {
      asked.delete(chunk);
    },
    signMs: () => signMs,
    pid: () => child.pid,
    stop() {
      child.kill('SIGTERM');
    },
  };
}
