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
 * PostgreSQL only (docs/decisions.md, "References checked per statement"): the references the tracing loop writes
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
      const tables = [...new Set(statementReferences.map((r) => r.table))];
      const targets = [...new Set(statementReferences.map((r) => r.target))];
      for (const r of statementReferences)
        await sql.raw(`alter table ${r.table} drop constraint ${r.constraint}`).execute(db);

      for (const table of tables) {
        const refs = statementReferences.filter((r) => r.table === table);
        const missing = (rows: string, r: Reference) => `
          select n.${r.column} into missing from ${rows} n
            where n.${r.column} is not null and not exists (select 1 from ${r.target} t where t.id = n.${r.column})
            limit 1;
          if found then
            raise exception using errcode = 'foreign_key_violation',
              message = 'insert or update on table "${table}" violates its reference ${r.column} to "${r.target}"',
              detail = format('Key (${r.column})=(%s) is not present in table "${r.target}".', missing);
          end if;`;
        // New rows: once per statement, over the statement's rows.
        await sql
          .raw(`create function athar_references_${table}_inserted() returns trigger language plpgsql
            set search_path from current as $$
            declare missing text;
            begin
              perform pg_advisory_xact_lock_shared(${lock});
              ${refs.map((r) => missing('inserted', r)).join('\n')}
              return null;
            end $$`)
          .execute(db);
        await sql
          .raw(`create trigger athar_references_inserted after insert on ${table}
            referencing new table as inserted for each statement
            execute function athar_references_${table}_inserted()`)
          .execute(db);
        // A changed reference (athar changes none): row by row, only when it changes.
        await sql
          .raw(`create function athar_references_${table}_changed() returns trigger language plpgsql
            set search_path from current as $$
            begin
              perform pg_advisory_xact_lock_shared(${lock});
              ${refs
                .map(
                  (r) => `
              if new.${r.column} is not null and not exists (select 1 from ${r.target} t where t.id = new.${r.column}) then
                raise exception using errcode = 'foreign_key_violation',
                  message = 'insert or update on table "${table}" violates its reference ${r.column} to "${r.target}"',
                  detail = format('Key (${r.column})=(%s) is not present in table "${r.target}".', new.${r.column});
              end if;`,
                )
                .join('\n')}
              return null;
            end $$`)
          .execute(db);
        await sql
          .raw(`create trigger athar_references_changed after update of ${refs.map((r) => r.column).join(', ')}
            on ${table} for each row
            when (${refs.map((r) => `old.${r.column} is distinct from new.${r.column}`).join(' or ')})
            execute function athar_references_${table}_changed()`)
          .execute(db);
      }

      for (const target of targets) {
        const refs = statementReferences.filter((r) => r.target === target);
        const named = (rows: string, r: Reference) => `
          select o.id into named from ${rows} o where exists (select 1 from ${r.table} x where x.${r.column} = o.id)
            limit 1;
          if found then
            raise exception using errcode = 'foreign_key_violation',
              message = 'update or delete on table "${target}" violates the reference ${r.column} of "${r.table}"',
              detail = format('Key (id)=(%s) is still referenced from table "${r.table}".', named);
          end if;`;
        await sql
          .raw(`create function athar_references_${target}_removed() returns trigger language plpgsql
            set search_path from current as $$
            declare named text;
            begin
              perform pg_advisory_xact_lock(${lock});
              ${refs.map((r) => named('removed', r)).join('\n')}
              return null;
            end $$`)
          .execute(db);
        await sql
          .raw(`create trigger athar_references_removed after delete on ${target}
            referencing old table as removed for each statement
            execute function athar_references_${target}_removed()`)
          .execute(db);
        await sql
          .raw(`create function athar_references_${target}_renamed() returns trigger language plpgsql
            set search_path from current as $$
            begin
              perform pg_advisory_xact_lock(${lock});
              ${refs
                .map(
                  (r) => `
              if exists (select 1 from ${r.table} x where x.${r.column} = old.id) then
                raise exception using errcode = 'foreign_key_violation',
                  message = 'update or delete on table "${target}" violates the reference ${r.column} of "${r.table}"',
                  detail = format('Key (id)=(%s) is still referenced from table "${r.table}".', old.id);
              end if;`,
                )
                .join('\n')}
              return null;
            end $$`)
          .execute(db);
        await sql
          .raw(`create trigger athar_references_renamed after update of id on ${target} for each row
            when (old.id is distinct from new.id)
            execute function athar_references_${target}_renamed()`)
          .execute(db);
        // A foreign key refuses to empty a table it names while rows name it; so does this.
        await sql
          .raw(`create function athar_references_${target}_emptied() returns trigger language plpgsql
            set search_path from current as $$
            begin
              perform pg_advisory_xact_lock(${lock});
              ${refs
                .map(
                  (r) => `
              if exists (select 1 from ${r.table} limit 1) then
                raise exception using errcode = 'foreign_key_violation',
                  message = 'cannot truncate "${target}": table "${r.table}" names its rows';
              end if;`,
                )
                .join('\n')}
              return null;
            end $$`)
          .execute(db);
        await sql
          .raw(`create trigger athar_references_emptied before truncate on ${target} for each statement
            execute function athar_references_${target}_emptied()`)
          .execute(db);
      }
    },
  };
}
