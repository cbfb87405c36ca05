import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';

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
