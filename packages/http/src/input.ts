/** Deepest nesting of objects and arrays a request may carry; the APIs' own bodies are one or two levels. */
export const MAX_INPUT_DEPTH = 32;

/** Why a request value cannot be taken as it is, and where in it. */
export interface InputProblem {
  /** Path of the value, `a.b[2]`; empty for the value itself. */
  where: string;
  reason: string;
}

/**
 * The first value in `input` (a parsed JSON body, a query or route parameters) that Postgres text, the
 * canonical string or JSON cannot hold: U+0000 or a lone surrogate in a string or key, a number that is
 * not finite (`1e400` parses to Infinity), nesting deeper than `maxDepth`. Undefined when all hold.
 */
export function findInputProblem(input: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | undefined {
  // Iterative, so a deep body cannot exhaust the stack here before its depth is refused.
  const pending: { value: unknown; where: string; depth: number }[] = [{ value: input, where: '', depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, where, depth } = item;
    switch (typeof value) {
      case 'string': {
        const reason = textProblem(value);
        if (reason) return { where, reason };
        break;
      }
      case 'number':
        if (!Number.isFinite(value)) return { where, reason: 'a number out of range' };
        break;
      case 'object': {
        if (value === null) break;
        if (depth >= maxDepth) return { where, reason: `nested deeper than ${maxDepth} levels` };
        if (Array.isArray(value)) {
          for (let i = value.length - 1; i >= 0; i--) {
            pending.push({ value: value[i], where: `${where}[${i}]`, depth: depth + 1 });
          }
          break;
        }
        const keys = Object.keys(value);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i] as string;
          const at = where === '' ? pathKey(key) : `${where}.${pathKey(key)}`;
          const reason = textProblem(key);
          if (reason) return { where: at, reason: `a key with ${reason.slice('text with '.length)}` };
          pending.push({ value: (value as Record<string, unknown>)[key], where: at, depth: depth + 1 });
        }
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Cutting text short can split a surrogate pair; the half left is replaced rather than sent.
function wellFormed(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'text with U+0000';
  if (LONE_SURROGATE.test(text)) return 'text with a lone surrogate';
  return undefined;
}

// A path names the offending field in a reply, which is itself signed text: a key that is not plain text
// is shown JSON-escaped, and a long one cut short.
function pathKey(key: string): string {
  const shown = /^[\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return shown.length > 64 ? `${wellFormed(shown.slice(0, 61))}...` : shown;
}

/** `where: reason`, short enough for a reply's message. */
export function describeInputProblem(problem: InputProblem): string {
  const where = problem.where.length > 160 ? `${wellFormed(problem.where.slice(0, 157))}...` : problem.where;
  return where === '' ? problem.reason : `${where}: ${problem.reason}`;
}
