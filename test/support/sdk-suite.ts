import { describe, expect, it } from 'vitest';
import {
  openapiEndpoints,
  readReport,
  readVectors,
  runSdkCommand,
  type SdkLanguage,
  sdkDir,
} from './sdks.js';

/**
 * The checks every SDK passes in the test command (sdks/README.md "Tests"): its own test runner passes,
 * every signing vector among its results, and its endpoint table matches docs/openapi.json.
 */
export function describeSdkChecks(language: SdkLanguage): void {
  describe(`the ${language} SDK (${sdkDir(language)})`, { timeout: 300_000 }, () => {
    it('passes its own tests, and reproduces and verifies every signing vector', async () => {
      const run = await runSdkCommand(language, 'run-tests', []);
      const results = readReport(run.stdout);
      const failed = results.filter((r) => !r.ok);
      expect(failed, run.stderr).toEqual([]);
      expect(run.exitCode, run.stderr).toBe(0);

      const passed = new Set(results.map((r) => r.name));
      const vectors = readVectors();
      const expected = [
        ...vectors.cases.map((c) => `vector: ${c.name}`),
        ...vectors.negative.map((c) => `negative: ${c.name}`),
      ];
      expect(expected.filter((name) => !passed.has(name))).toEqual([]);
      // The runner's own tests beyond the vectors: retries, errors, callbacks, keys.
      expect(results.length).toBeGreaterThan(expected.length + 5);
    });

    it('has a typed call for every merchant endpoint of docs/openapi.json, with its fields', async () => {
      const run = await runSdkCommand(language, 'run-tests', ['endpoints']);
      expect(run.exitCode, run.stderr).toBe(0);
      const table = JSON.parse(run.stdout) as Record<
        string,
        { path: string; params: string[]; required: string[] }
      >;
      for (const shape of Object.values(table)) {
        shape.params.sort();
        shape.required.sort();
      }
      expect(table).toEqual(openapiEndpoints());
    });
  });
}
