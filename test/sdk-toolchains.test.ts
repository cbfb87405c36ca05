import { afterEach, describe, expect, it } from 'vitest';
import { INSTALL_TOOLCHAINS, requireToolchain } from './support/sdks.js';

// A missing SDK toolchain fails the test command with the one command that installs it, never a skip.

const saved = { PATH: process.env['PATH'], AGENTPAY_PYTHON: process.env['AGENTPAY_PYTHON'] };

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('SDK toolchains', () => {
  it('names what is missing and the install command when PHP is not on the PATH', async () => {
    process.env['PATH'] = '/nonexistent';
    await expect(requireToolchain('php')).rejects.toThrow(
      `Install every SDK toolchain with \`${INSTALL_TOOLCHAINS}\` (apt-get install -y php-cli php-curl)`,
    );
  });

  it('names the Python it looked for when that Python is missing', async () => {
    process.env['AGENTPAY_PYTHON'] = '/nonexistent/python3';
    await expect(requireToolchain('python')).rejects.toThrow(
      /\/nonexistent\/python3.*scripts\/install-toolchains\.sh.*python3-cryptography/,
    );
  });

  it('finds the installed toolchains', async () => {
    await expect(requireToolchain('php')).resolves.toBeUndefined();
    await expect(requireToolchain('python')).resolves.toBeUndefined();
  });
});
