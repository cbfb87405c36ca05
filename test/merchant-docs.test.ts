import { readFileSync } from 'node:fs';
import { canonicalString, parsePrivateKey, parsePublicKey, signObject, verifyObject } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';

// The worked examples of docs/merchant-api.md, recomputed with the platform's own signing code
// (packages/wire) and the signing vectors' keys, so that a newcomer who follows the document byte for byte
// gets what the gateway verifies, and the document cannot drift from it.

const guide = readFileSync(new URL('../docs/merchant-api.md', import.meta.url), 'utf8');
// The signing vectors every SDK reproduces (sdks/vectors/signing.json, sdks/README.md).
const vectors = JSON.parse(
  readFileSync(new URL('../sdks/vectors/signing.json', import.meta.url), 'utf8'),
) as {
  keys: Record<'merchant' | 'platform', { privateKey: string; publicKey: string }>;
  cases: { name: string; object: Record<string, unknown>; canonical: string }[];
};

/** The fenced blocks (info string and text) of the section that starts with `heading`. */
function blocksOf(heading: string): { info: string; text: string }[] {
  const start = guide.indexOf(`\n${heading}\n`);
  expect(start, `section "${heading}"`).toBeGreaterThan(-1);
  const rest = guide.slice(start + heading.length + 2);
  const end = rest.search(/\n#{2,3} /);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```(\w*)\n([\s\S]*?)\n```/g)].map((m) => ({ info: m[1]!, text: m[2]! }));
}

describe('docs/merchant-api.md', () => {
  const workedExamples = [...guide.matchAll(/^### (Worked example.*)$/gm)].map((m) => `### ${m[1]}`);

  it('has the worked examples: the published vector and an integer amount with a nested null', () => {
    expect(workedExamples).toEqual([
      '### Worked example',
      '### Worked example: an integer amount and a nested null',
    ]);
  });

  it.each(workedExamples)(
    '"%s": the canonical string and signature are what packages/wire makes of the JSON',
    (heading) => {
      const blocks = blocksOf(heading);
      const json = blocks.find((b) => b.info === 'json')!;
      const texts = blocks.filter((b) => b.info === 'text').map((b) => b.text);
      const object = JSON.parse(json.text) as Record<string, unknown>;
      const [canonical, signature] = texts;
      expect(canonicalString(object)).toBe(canonical);
      expect(signObject(object, parsePrivateKey(vectors.keys.merchant.privateKey))).toBe(signature);
      // The public key printed in the document verifies it.
      const publicKey = blocksOf('### Worked example')
        .map((b) => b.text)
        .find((t) => t.startsWith('-----BEGIN PUBLIC KEY-----'))!;
      expect(verifyObject(object, signature!, parsePublicKey(`${publicKey}\n`))).toBe(true);
    },
  );

  it('keeps a nested null and drops a top-level one (rule 1), as the second example says', () => {
    const [, canonical] = blocksOf('### Worked example: an integer amount and a nested null').map(
      (b) => b.text,
    );
    expect(canonical).toContain('"coupon":null}');
    expect(canonical).toContain('amount=5&');
    expect(canonical).not.toContain('attach=');
  });

  it('shows the canonical strings of a reply and of a callback as the vectors have them, callback fields included', () => {
    const texts = blocksOf('### Replies and callbacks').map((b) => b.text);
    for (const name of ['response with object data', 'payment callback']) {
      const vector = vectors.cases.find((c) => c.name === name)!;
      expect(canonicalString(vector.object)).toBe(vector.canonical);
      expect(texts).toContain(vector.canonical);
    }
    const callback = vectors.cases.find((c) => c.name === 'payment callback')!.canonical;
    for (const key of ['appId', 'code', 'data', 'mchNo', 'msg', 'noticeType', 'resTime', 'traceId'])
      expect(callback).toMatch(new RegExp(`(^|&)${key}=`));
  });
});
