import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

// Named prepared statements for the hot path. Postgres parses and plans an unnamed statement on every
// execution; a named one is parsed once per connection. Measured under the create-pay bench: about
// 0.3 ms less Postgres CPU per pay (docs/benchmarks.md).
//
// Only statements run through `executePrepared` are named, and they must list their columns: a
// prepared `select *` or `returning *` would fail with "cached plan must not change result type" on
// every running replica as soon as a migration adds a column. With listed columns an additive
// migration only makes Postgres plan the statement again.

/** More distinct texts than this are run unnamed: a bound on what each connection keeps prepared. */
const MAX_PREPARED = 200;

const names = new Map<string, string>();

/** The statement name of `text` if it is registered for preparation. */
export function preparedName(text: string): string | undefined {
  return names.get(text);
}

const STAR = /\b(?:select|returning)\s+(?:distinct\s+)?\*|\.\*/i;

function register(text: string): void {
  if (names.has(text)) return;
  if (STAR.test(text))
    throw new Error(`a prepared statement must list its columns, not select *: ${text.slice(0, 120)}`);
  if (names.size < MAX_PREPARED)
    names.set(text, `ap_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`);
}

/** A Kysely instance or transaction. */
export interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/**
 * Runs `query` (a Kysely query, or `CompiledQuery.raw(text, parameters)`) on `db` as a named prepared
 * statement on pools made by `createDb` with prepared statements on; elsewhere as any other query.
 */
export function executePrepared<R>(
  db: QueryRunner,
  query: Compilable<R> | CompiledQuery<R>,
): Promise<QueryResult<R>> {
  const compiled = 'compile' in query ? query.compile() : query;
  register(compiled.sql);
  return db.executeQuery(compiled);
}

/**
 * Every column of a table, written out, for statements that must not say `*`. The spec names each
 * column once: the compiler refuses a list that misses a column of `T` or names one it lacks.
 */
export function allColumns<T>(spec: { [K in keyof T]-?: true }): readonly (keyof T & string)[] {
  return Object.keys(spec) as (keyof T & string)[];
}

/** Stands for a parameter while a statement is compiled; replaced by the caller's value at each run. */
class Placeholder {
  constructor(readonly key: string) {}
}

/** The parameters of a statement as `build` sees them: each one stands for the value given at run time. */
export type Placeholders<P> = { readonly [K in keyof P]: P[K] };

/** A statement compiled once (see `compiledOnce`). */
export interface CompiledStatement<DB, P, R> {
  /** Runs the statement on `db` (a Kysely instance or transaction) with these parameter values. */
  run(db: Kysely<DB>, params: P): Promise<QueryResult<R>>;
}

/**
 * A statement that Kysely builds and compiles once, on its first run, instead of on every call: each
 * run after that only puts the caller's values in place of the placeholders (about 20 µs and a few KB
 * of garbage less per statement). It runs as a named prepared statement, like `executePrepared`'s.
 *
 * `build(db, p)` uses each `p.<name>` only where Kysely takes a value (`values`, `set`, `where`, a
 * `sql` template's `${}`), which it sends as a `$n` parameter; the text must not depend on the values.
 * A placeholder Kysely would write into the text itself is refused at the first run. Absent values are
 * sent as null: give a column's default yourself (Kysely would leave out a column whose value is
 * undefined; a compiled statement always names the same columns).
 */
export function compiledOnce<DB, P extends object, R>(
  build: (db: Kysely<DB>, p: Placeholders<P>) => Compilable<R>,
): CompiledStatement<DB, P, R> {
  let compiled: CompiledQuery<R> | undefined;
  // For each parameter of the compiled text: the key of the caller's value, or a constant of `build`.
  let slots: ({ key: string } | { value: unknown })[] = [];
  const compile = (db: Kysely<DB>): CompiledQuery<R> => {
    const made: Placeholder[] = [];
    const p = new Proxy({} as Placeholders<P>, {
      get: (_, key) => {
        const placeholder = new Placeholder(String(key));
        made.push(placeholder);
        return placeholder;
      },
    });
    const query = build(db, p).compile();
    const missing = made.find((m) => !query.parameters.includes(m));
    if (missing)
      throw new Error(
        `compiledOnce: ${missing.key} is not a parameter of the statement: ${query.sql.slice(0, 120)}`,
      );
    register(query.sql);
    slots = query.parameters.map((v) => (v instanceof Placeholder ? { key: v.key } : { value: v }));
    return query;
  };
  return {
    async run(db, params) {
      compiled ??= compile(db);
      const values = params as Record<string, unknown>;
      const parameters = slots.map((slot) => ('key' in slot ? (values[slot.key] ?? null) : slot.value));
      return db.executeQuery({ ...compiled, parameters });
    },
  };
}
