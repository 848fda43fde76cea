import { type Kysely, type Migration, sql } from 'kysely';
import type { Capabilities } from '../capabilities.js';

/** A reference the tracing loop writes in bulk: `table.column` holds an id of `target`. */
interface Reference {
  table: string;
  column: string;
  target: string;
  /** The foreign key it replaces. */
  constraint: string;
}

export const statementReferences: readonly Reference[] = [
  {
    table: 'candidate_pairs',
    column: 'record_a',
    target: 'records',
    constraint: 'candidate_pairs_record_a_fkey',
  },
  {
    table: 'candidate_pairs',
    column: 'record_b',
    target: 'records',
    constraint: 'candidate_pairs_record_b_fkey',
  },
  {
    table: 'record_links',
    column: 'record_id',
    target: 'records',
    constraint: 'record_links_record_id_fkey',
  },
  {
    table: 'record_links',
    column: 'person_id',
    target: 'persons',
    constraint: 'record_links_person_id_fkey',
  },
  { table: 'model_links', column: 'link_id', target: 'record_links', constraint: 'model_links_link_id_fkey' },
];

/**
 * PostgreSQL only (docs/decisions.md, "References checked per statement on PostgreSQL"): the references the tracing loop writes
 * in bulk — review pairs to their records, links to their record and person, the model's provenance to its link —
 * are checked once per statement by triggers instead of row by row by foreign keys. A foreign key check locks the
 * row it finds (FOR KEY SHARE), and each lock is a write-ahead-log record that, the first time a page is touched
 * after a checkpoint, carries the whole page: at 1M records `registry link` wrote 6.7 GB of WAL, 63% of it these
 * locks' page images, and the checkpoints that volume set off slowed its writing by a fifth.
 *
 * The guarantees are the keys': a row naming a record, person or link that does not exist is refused
 * (SQLSTATE 23503, foreign_key_violation, naming the key), and so is deleting a row still named, or changing its
 * id. Where a key check's row lock kept a check from passing against a row being deleted, writers and deleters of
 * these rows exclude each other by an advisory lock of the schema (shared by writers, exclusive for deleters:
 * athar deletes none of these rows, so writers never wait). The checks run in READ COMMITTED, athar's level: each
 * reads what committed before it. SQLite keeps its foreign keys: their checks take no locks.
 */
export function statementReferencesMigration(caps: Capabilities): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      if (caps.dialect !== 'postgres') return;
      const lock = `hashtext(current_schema() || '/athar.references')`;
      /** A trigger and its function, which first takes the advisory lock (shared: writers; exclusive: deleters). */
      const trigger = async (name: string, on: string, lockMode: 'shared' | 'exclusive', body: string) => {
        const fn = `athar_references_${on}_${name}`;
        await sql
          .raw(`create function ${fn}() returns trigger language plpgsql set search_path from current as $$
            declare found_id text;
            begin
              perform pg_advisory_xact_lock${lockMode === 'shared' ? '_shared' : ''}(${lock});
              ${body}
              return null;
            end $$`)
          .execute(db);
        return fn;
      };
      // The same check over a statement's rows (a transition table) or one row (`new` or `old` as a one-row set).
      const missing = (rows: string, r: Reference) => `
        select n.${r.column} into found_id from ${rows} n
          where n.${r.column} is not null and not exists (select 1 from ${r.target} t where t.id = n.${r.column})
          limit 1;
        if found then
          raise exception using errcode = 'foreign_key_violation',
            message = 'insert or update on table "${r.table}" violates its reference ${r.column} to "${r.target}"',
            detail = format('Key (${r.column})=(%s) is not present in table "${r.target}".', found_id);
        end if;`;
      const named = (rows: string, r: Reference) => `
        select o.id into found_id from ${rows} o where exists (select 1 from ${r.table} x where x.${r.column} = o.id)
          limit 1;
        if found then
          raise exception using errcode = 'foreign_key_violation',
            message = 'update or delete on table "${r.target}" violates the reference ${r.column} of "${r.table}"',
            detail = format('Key (id)=(%s) is still referenced from table "${r.table}".', found_id);
        end if;`;

      for (const r of statementReferences)
        await sql.raw(`alter table ${r.table} drop constraint ${r.constraint}`).execute(db);

      for (const table of new Set(statementReferences.map((r) => r.table))) {
        const refs = statementReferences.filter((r) => r.table === table);
        // New rows: once per statement, over the statement's rows.
        const inserted = await trigger(
          'inserted',
          table,
          'shared',
          refs.map((r) => missing('inserted', r)).join(''),
        );
        await sql
          .raw(`create trigger athar_references_inserted after insert on ${table}
            referencing new table as inserted for each statement execute function ${inserted}()`)
          .execute(db);
        // A changed reference (athar changes none): row by row, only when it changes.
        const row = `(select ${refs.map((r) => `new.${r.column} as ${r.column}`).join(', ')})`;
        const changed = await trigger('changed', table, 'shared', refs.map((r) => missing(row, r)).join(''));
        await sql
          .raw(`create trigger athar_references_changed after update of ${refs.map((r) => r.column).join(', ')}
            on ${table} for each row
            when (${refs.map((r) => `old.${r.column} is distinct from new.${r.column}`).join(' or ')})
            execute function ${changed}()`)
          .execute(db);
      }

      for (const target of new Set(statementReferences.map((r) => r.target))) {
        const refs = statementReferences.filter((r) => r.target === target);
        const removed = await trigger(
          'removed',
          target,
          'exclusive',
          refs.map((r) => named('removed', r)).join(''),
        );
        await sql
          .raw(`create trigger athar_references_removed after delete on ${target}
            referencing old table as removed for each statement execute function ${removed}()`)
          .execute(db);
        const renamed = await trigger(
          'renamed',
          target,
          'exclusive',
          refs.map((r) => named('(select old.id as id)', r)).join(''),
        );
        await sql
          .raw(`create trigger athar_references_renamed after update of id on ${target} for each row
            when (old.id is distinct from new.id) execute function ${renamed}()`)
          .execute(db);
        // A foreign key refuses to empty a table it names while rows name it; so does this.
        const emptied = await trigger(
          'emptied',
          target,
          'exclusive',
          refs
            .map(
              (r) => `
        if exists (select 1 from ${r.table} limit 1) then
          raise exception using errcode = 'foreign_key_violation',
            message = 'cannot truncate "${target}": table "${r.table}" names its rows';
        end if;`,
            )
            .join(''),
        );
        await sql
          .raw(`create trigger athar_references_emptied before truncate on ${target} for each statement
            execute function ${emptied}()`)
          .execute(db);
      }
    },
  };
}
