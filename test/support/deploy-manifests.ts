/**
 * Test support for the deployment manifests: renders a kustomize overlay with the real kustomize (the one
 * built into kubectl, or a standalone `kustomize`), and indexes the rendered objects by kind and name.
 * No cluster is involved: `kubectl kustomize` renders locally.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const K8S_DIR = join(REPO_ROOT, 'deploy/k8s');

export type Overlay = 'dev' | 'prod';
export const OVERLAYS: readonly Overlay[] = ['dev', 'prod'];

/** A rendered object; the tests validate it against the Kubernetes schemas before trusting its shape. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

function onPath(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

let kustomizeCommand: [string, string[]] | undefined;

/** `kustomize build` if installed, else `kubectl kustomize` (kubectl embeds kustomize v5). */
function kustomize(): [string, string[]] {
  if (!kustomizeCommand) {
    if (onPath('kustomize', ['version'])) kustomizeCommand = ['kustomize', ['build']];
    else if (onPath('kubectl', ['version', '--client'])) kustomizeCommand = ['kubectl', ['kustomize']];
    else {
      throw new Error(
        'rendering the manifests needs kustomize: install kubectl (it embeds kustomize) or kustomize',
      );
    }
  }
  return kustomizeCommand;
}

/**
 * Renders deploy/k8s/overlays/<overlay> from a scratch copy of deploy/k8s, so the dev overlay's
 * git-ignored platform key can be generated there without touching the working tree.
 */
export function renderOverlay(overlay: Overlay): K8sObject[] {
  const scratch = mkdtempSync(join(tmpdir(), 'agentpay-k8s-'));
  try {
    cpSync(K8S_DIR, scratch, { recursive: true });
    const secrets = join(scratch, 'overlays/dev/secrets');
    mkdirSync(secrets, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(
      join(secrets, 'platform-key.pem'),
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    const [command, args] = kustomize();
    const output = execFileSync(command, [...args, join(scratch, 'overlays', overlay)], {
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 32 * 1024 * 1024,
    });
    return parseAllDocuments(output)
      .map((doc) => doc.toJS() as K8sObject | null)
      .filter((o): o is K8sObject => o !== null);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The objects of one kind. */
export function ofKind<T = K8sObject>(objects: K8sObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as T[];
}

/** The one object of `kind` named `name` (or, for generated ConfigMaps/Secrets, `name-<hash>`). */
export function named<T = K8sObject>(objects: K8sObject[], kind: string, name: string): T {
  const found = objects.filter(
    (o) =>
      o.kind === kind &&
      (o.metadata.name === name ||
        (/^-[a-z0-9]{10}$/.test(o.metadata.name.slice(name.length)) && o.metadata.name.startsWith(name))),
  );
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0] as T;
}
