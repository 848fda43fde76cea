import { aliasKey, branches, governorates } from '../../gazetteer/index.js';
import type { Db, Store } from '../store.js';

export interface BranchRow {
  id: string;
  number: number | null;
  kind: string;
  agency: string;
  nameEn: string;
  nameAr: string;
  governorateId: string | null;
  aliases: string[];
}

export interface GovernorateRow {
  id: string;
  isoCode: string;
  nameEn: string;
  nameAr: string;
  aliases: string[];
}

/**
 * Brings the seeded governorates and branches up to date with src/gazetteer: adds what is missing, refreshes
 * names, never removes anything (aliases added by users stay). Idempotent; runs at every start.
 */
export async function syncGazetteer(store: Store): Promise<void> {
  await store.transaction(async (trx) => {
    for (const g of governorates) {
      await trx
        .insertInto('governorates')
        .values({ id: g.id, iso_code: g.iso, name_en: g.nameEn, name_ar: g.nameAr })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({ iso_code: g.iso, name_en: g.nameEn, name_ar: g.nameAr }),
        )
        .execute();
      const aliases = unique([g.nameEn, g.nameAr, ...g.aliases]);
      await trx
        .insertInto('governorate_aliases')
        .values(aliases.map((alias) => ({ governorate_id: g.id, alias, alias_key: aliasKey(alias) })))
        .onConflict((oc) => oc.columns(['governorate_id', 'alias']).doNothing())
        .execute();
    }
    for (const b of branches) {
      const row = {
        number: b.number,
        kind: b.kind,
        agency: b.agency,
        name_en: b.nameEn,
        name_ar: b.nameAr,
        governorate_id: b.governorate,
      };
      await trx
        .insertInto('branches')
        .values({ id: b.id, notes: null, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
      const aliases = unique([b.nameEn, b.nameAr, ...b.aliases]);
      await trx
        .insertInto('branch_aliases')
        .values(aliases.map((alias) => ({ branch_id: b.id, alias, alias_key: aliasKey(alias) })))
        .onConflict((oc) => oc.columns(['branch_id', 'alias']).doNothing())
        .execute();
    }
  });
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Branches and governorates as stored, with their aliases; lookups by any alias. */
export class PlaceRepository {
  constructor(private readonly db: Db) {}

  async listBranches(): Promise<BranchRow[]> {
    const rows = await this.db.selectFrom('branches').selectAll().orderBy('id').execute();
    const aliases = await this.db
      .selectFrom('branch_aliases')
      .select(['branch_id', 'alias'])
      .orderBy('alias')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      number: r.number,
      kind: r.kind,
      agency: r.agency,
      nameEn: r.name_en,
      nameAr: r.name_ar,
      governorateId: r.governorate_id,
      aliases: aliases.filter((a) => a.branch_id === r.id).map((a) => a.alias),
    }));
  }

  async listGovernorates(): Promise<GovernorateRow[]> {
    const rows = await this.db.selectFrom('governorates').selectAll().orderBy('id').execute();
    const aliases = await this.db
      .selectFrom('governorate_aliases')
      .select(['governorate_id', 'alias'])
      .orderBy('alias')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      isoCode: r.iso_code,
      nameEn: r.name_en,
      nameAr: r.name_ar,
      aliases: aliases.filter((a) => a.governorate_id === r.id).map((a) => a.alias),
    }));
  }

  /** The branch whose alias (in either script) matches the text, or undefined. */
  async findBranchByAlias(text: string): Promise<string | undefined> {
    const key = aliasKey(text);
    if (!key) return undefined;
    const rows = await this.db
      .selectFrom('branch_aliases')
      .select('branch_id')
      .where('alias_key', '=', key)
      .execute();
    const ids = new Set(rows.map((r) => r.branch_id));
    return ids.size === 1 ? [...ids][0] : undefined;
  }

  async findGovernorateByAlias(text: string): Promise<string | undefined> {
    const key = aliasKey(text);
    if (!key) return undefined;
    const rows = await this.db
      .selectFrom('governorate_aliases')
      .select('governorate_id')
      .where('alias_key', '=', key)
      .execute();
    const ids = new Set(rows.map((r) => r.governorate_id));
    return ids.size === 1 ? [...ids][0] : undefined;
  }

  /** Adds a spelling met in the field, so later imports resolve it. */
  async addBranchAlias(branchId: string, alias: string): Promise<void> {
    await this.db
      .insertInto('branch_aliases')
      .values({ branch_id: branchId, alias, alias_key: aliasKey(alias) })
      .onConflict((oc) => oc.columns(['branch_id', 'alias']).doNothing())
      .execute();
  }
}
