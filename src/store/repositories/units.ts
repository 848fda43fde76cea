import type { BranchTable } from '../schema.js';
import type { Db } from '../store.js';

export interface UnitAlias {
  alias: string;
  createdAt: string | null;
  createdBy: string | null;
}

/** The gazetteer's units (branches, prisons, hospitals, directorates, agencies) as editable rows (migration 0013). */
export class UnitRepository {
  constructor(private readonly db: Db) {}

  async get(id: string): Promise<BranchTable | undefined> {
    return this.db.selectFrom('branches').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: BranchTable): Promise<void> {
    await this.db.insertInto('branches').values(row).execute();
  }

  async setParent(id: string, parentId: string | null): Promise<void> {
    await this.db.updateTable('branches').set({ parent_id: parentId }).where('id', '=', id).execute();
  }

  async children(id: string): Promise<BranchTable[]> {
    return this.db
      .selectFrom('branches')
      .selectAll()
      .where('parent_id', '=', id)
      .orderBy('name_en')
      .execute();
  }

  async aliases(id: string): Promise<UnitAlias[]> {
    const rows = await this.db
      .selectFrom('branch_aliases')
      .select(['alias', 'created_at', 'created_by'])
      .where('branch_id', '=', id)
      .orderBy('alias')
      .execute();
    return rows.map((r) => ({ alias: r.alias, createdAt: r.created_at, createdBy: r.created_by }));
  }

  /** The units a stored alias key names. */
  async named(aliasKey: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('branch_aliases')
      .select('branch_id')
      .distinct()
      .where('alias_key', '=', aliasKey)
      .execute();
    return rows.map((r) => r.branch_id);
  }

  /** How many records and events name the unit (through their indexes). */
  async counts(id: string): Promise<{ records: number; events: number }> {
    const records = await this.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('arresting_branch_id', '=', id)
      .executeTakeFirstOrThrow();
    const events = await this.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('branch_id', '=', id)
      .executeTakeFirstOrThrow();
    return { records: Number(records.n), events: Number(events.n) };
  }

  /** Events held at, transferred to or arrested by the unit, newest first. */
  async events(id: string, limit: number) {
    return this.db
      .selectFrom('events')
      .select(['id', 'type', 'date_start', 'person_id', 'record_id', 'place'])
      .where('branch_id', '=', id)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Evidence labels that carry the unit's number: card annotations and body labels, newest first. */
  async labels(numberKey: string, limit: number) {
    const annotations = await this.db
      .selectFrom('annotations')
      .select(['id', 'evidence_id', 'value', 'read_from'])
      .where('kind', '=', 'branch_number')
      .where('value_key', '=', numberKey)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    const bodyLabels = await this.db
      .selectFrom('body_labels')
      .select(['id', 'evidence_id', 'value', 'read_from'])
      .where('part', '=', 'branch')
      .where('value_key', '=', numberKey)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return [...annotations, ...bodyLabels]
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map((r) => ({ id: r.id, evidenceId: r.evidence_id, value: r.value, readFrom: r.read_from }));
  }
}
