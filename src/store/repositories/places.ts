import {
  aliasKey,
  branches,
  branchSpellings,
  governorateSpellings,
  governorates,
} from '../../gazetteer/index.js';
import type { Db, Store } from '../store.js';

export interface BranchRow {
  id: string;
  number: number | null;
  kind: string;
  agency: string;
  nameEn: string;
  nameAr: string;
  governorateId: string | null;
  parentId: string | null;
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
      const aliases = governorateSpellings(g);
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
      const aliases = branchSpellings(b);
      await trx
        .insertInto('branch_aliases')
        .values(aliases.map((alias) => ({ branch_id: b.id, alias, alias_key: aliasKey(alias) })))
        .onConflict((oc) => oc.columns(['branch_id', 'alias']).doNothing())
        .execute();
    }
    // Parents once every unit exists (agencies come last); a parent someone set since is theirs to keep.
    for (const b of branches) {
      if (!b.parent) continue;
      await trx
        .updateTable('branches')
        .set({ parent_id: b.parent })
        .where('id', '=', b.id)
        .where('parent_id', 'is', null)
        .execute();
    }
  });
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
      parentId: r.parent_id,
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
  async addBranchAlias(branchId: string, alias: string, by?: { userId: string; at: string }): Promise<void> {
    await this.db
      .insertInto('branch_aliases')
      .values({
        branch_id: branchId,
        alias,
        alias_key: aliasKey(alias),
        created_at: by?.at ?? null,
        created_by: by?.userId ?? null,
      })
      .onConflict((oc) => oc.columns(['branch_id', 'alias']).doNothing())
      .execute();
  }

  /** Every stored alias key that names exactly one branch or governorate (what imports resolve through). */
  async aliasKeys(): Promise<{ branches: Map<string, string>; governorates: Map<string, string> }> {
    const unique = (rows: { key: string; id: string }[]) => {
      const ids = new Map<string, Set<string>>();
      for (const r of rows) ids.set(r.key, (ids.get(r.key) ?? new Set()).add(r.id));
      return new Map(
        [...ids].filter(([, set]) => set.size === 1).map(([key, set]) => [key, [...set][0] as string]),
      );
    };
    const b = await this.db
      .selectFrom('branch_aliases')
      .select(['alias_key as key', 'branch_id as id'])
      .execute();
    const g = await this.db
      .selectFrom('governorate_aliases')
      .select(['alias_key as key', 'governorate_id as id'])
      .execute();
    return { branches: unique(b), governorates: unique(g) };
  }
}
