/**
 * The harness every SDK's tests use (sdks/README.md "Tests"): the toolchains each language needs, found
 * or reported with the one command that installs them, and the SDK's own executables run as child
 * processes, their JSON-line reports read back.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type SdkLanguage = 'php' | 'python' | 'java';

/** The SDKs under sdks/ that the test command checks; each must pass the same checks. */
export const SDK_LANGUAGES: readonly SdkLanguage[] = ['php', 'python'];

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The one command that installs every SDK toolchain (README "Run every test"). */
export const INSTALL_TOOLCHAINS = 'scripts/install-toolchains.sh';

interface Toolchain {
  /** What is missing, in a reader's words. */
  what: string;
  /** The Debian packages that provide it (scripts/install-toolchains.sh installs them). */
  packages: string;
  /** Resolves when present; rejects with the reason otherwise. */
  check(): Promise<void>;
}

/** The interpreter the Python SDK's scripts use: AGENTPAY_PYTHON, else the system's /usr/bin/python3. */
export function pythonCommand(): string {
  return process.env['AGENTPAY_PYTHON'] || '/usr/bin/python3';
}

const TOOLCHAINS: Record<SdkLanguage, Toolchain> = {
  php: {
    what: 'PHP 8.1 or later (CLI) with the curl, openssl and json extensions',
    packages: 'php-cli php-curl',
    async check() {
      await exec('php', [
        '-r',
        'if (PHP_VERSION_ID < 80100) { fwrite(STDERR, "PHP " . PHP_VERSION . " is older than 8.1\\n"); exit(1); }' +
          'foreach (["curl", "openssl", "json"] as $e) { if (!extension_loaded($e)) { fwrite(STDERR, "the $e extension is not loaded\\n"); exit(1); } }',
      ]);
    },
  },
  python: {
    what: `Python 3.9 or later with cryptography (${pythonCommand()})`,
    packages: 'python3 python3-cryptography',
    async check() {
      await exec(pythonCommand(), [
        '-c',
        'import sys\nif sys.version_info < (3, 9): sys.exit("Python %s is older than 3.9" % sys.version.split()[0])\nimport cryptography',
      ]);
    },
  },
  java: {
    what: 'a JDK 17 or later (javac and java)',
    packages: 'openjdk-17-jdk-headless',
    async check() {
      const { stdout, stderr } = await exec('javac', ['-version']);
      const major = Number(/javac (\d+)/.exec(`${stdout}${stderr}`)?.[1] ?? 0);
      if (major < 17) throw new Error(`javac ${major || '?'} is older than 17`);
    },
  },
};

/**
 * Resolves when the language's toolchain is installed; otherwise fails with what is missing and the
 * command that installs it (never a silent skip).
 */
export async function requireToolchain(language: SdkLanguage): Promise<void> {
  const toolchain = TOOLCHAINS[language];
  try {
    await toolchain.check();
  } catch (error) {
    throw new Error(
      `The ${language} SDK's tests need ${toolchain.what}, which is missing here (${reason(error)}). ` +
        `Install every SDK toolchain with \`${INSTALL_TOOLCHAINS}\` (apt-get install -y ${toolchain.packages}).`,
    );
  }
}

/** sdks/<language>, absolute. */
export function sdkDir(language: SdkLanguage): string {
  return join(repoRoot, 'sdks', language);
}

/** One line of a run-tests report. */
export interface SdkTestResult {
  name: string;
  ok: boolean;
  error?: string;
}

export interface ProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `sdks/<language>/<command> ...args` (after checking the toolchain) and returns how it ended. */
export async function runSdkCommand(
  language: SdkLanguage,
  command: 'run-tests' | 'run-example',
  args: string[],
  options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  await requireToolchain(language);
  return new Promise((resolve) => {
    const child = execFile(
      join(sdkDir(language), command),
      args,
      {
        cwd: sdkDir(language),
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 240_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ exitCode: code, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** The results of `run-tests` (one JSON object per line; other lines are ignored). */
export function readReport(stdout: string): SdkTestResult[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as SdkTestResult);
}

/** The signing vectors every SDK reproduces. */
export interface SdkVectors {
  cases: { name: string }[];
  negative: { name: string }[];
}

export function readVectors(): SdkVectors {
  return JSON.parse(readFileSync(join(repoRoot, 'sdks/vectors/signing.json'), 'utf8')) as SdkVectors;
}

/** The merchant endpoints of docs/openapi.json: operationId → path, business fields and required ones. */
export interface EndpointShape {
  path: string;
  params: string[];
  required: string[];
}

/** Common parameters every SDK fills in itself (mchNo, reqTime, sign) or takes per request (the others). */
export const COMMON_PARAMS = ['mchNo', 'reqTime', 'sign', 'appId', 'nonceStr', 'clientIp'];

export function openapiEndpoints(): Record<string, EndpointShape> {
  const doc = JSON.parse(readFileSync(join(repoRoot, 'docs/openapi.json'), 'utf8')) as {
    paths: Record<
      string,
      {
        post?: {
          operationId: string;
          requestBody: {
            content: {
              'application/json': { schema: { properties: Record<string, unknown>; required?: string[] } };
            };
          };
        };
      }
    >;
  };
  const out: Record<string, EndpointShape> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!item.post || !path.startsWith('/gateway/')) continue;
    const schema = item.post.requestBody.content['application/json'].schema;
    const business = (names: string[]) => names.filter((n) => !COMMON_PARAMS.includes(n)).sort();
    out[item.post.operationId] = {
      path,
      params: business(Object.keys(schema.properties)),
      required: business(schema.required ?? []),
    };
  }
  return out;
}

function exec(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) {
        const detail = stderr.trim() || error.message;
        reject(new Error(detail));
      } else {
        resolve({ stdout, stderr });
      }
    });
  });
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.replace(/^spawn (\S+) ENOENT$/, '$1: command not found');
}
