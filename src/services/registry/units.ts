import { type Caller, can } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import { identifierKey } from '../../evidence/identifiers.js';
import { aliasKey, resolveBranch } from '../../gazetteer/index.js';
import { newId } from '../../ids.js';
import { PlaceRepository } from '../../store/repositories/places.js';
import { RecordRepository } from '../../store/repositories/records.js';
import { UnitRepository } from '../../store/repositories/units.js';
import type { BranchTable } from '../../store/schema.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { seesWithdrawn } from './consent-filter.js';

/** The kinds of unit a person can add: the gazetteer's kinds (src/gazetteer/branches.ts). */
export const unitKinds = [
  'security_branch',
  'prison',
  'military_police',
  'military_hospital',
  'hospital',
  'directorate',
  'agency',
] as const;
export type UnitKind = (typeof unitKinds)[number];

export interface UnitInput {
  nameEn: string;
  nameAr: string;
  kind: UnitKind;
  number?: number | null;
  parentId?: string | null;
  governorateId?: string | null;
  notes?: string | null;
}

const listed = 20;

/**
 * Security branches, prisons, hospitals and the directorates and agencies above them, as entities people keep: add a
 * unit, a spelling met in the field (which later imports resolve), a parent unit; and see what names a unit.
 */
export class UnitService {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {}

  private get units(): UnitRepository {
    return new UnitRepository(this.ctx.store.db);
  }

  private now(): string {
    return new Date(this.ctx.clock()).toISOString();
  }

  list() {
    return new PlaceRepository(this.ctx.store.db).listBranches();
  }

  private async require(id: string): Promise<BranchTable> {
    const unit = await this.units.get(id);
    if (!unit) throw new DomainError('not_found', `no unit ${id}`);
    return unit;
  }

  /** The units above this one, nearest first. */
  private async ancestors(unit: BranchTable): Promise<BranchTable[]> {
    const out: BranchTable[] = [];
    let next = unit.parent_id;
    while (next && out.length < 10) {
      const parent = await this.units.get(next);
      if (!parent) break;
      out.push(parent);
      next = parent.parent_id;
    }
    return out;
  }

  /**
   * A unit with its aliases, place in the hierarchy, and what names it: records (consent-filtered, audited as a
   * read), events and evidence labels carrying its number — each only for a caller who may read those.
   */
  async view(id: string, caller: Caller) {
    const unit = await this.require(id);
    const db = this.ctx.store.db;
    const readsRecords = can(caller, 'records:read');
    const records = readsRecords
      ? await new RecordRepository(db, this.ctx.store.capabilities).page(
          { branchId: id, withoutWithdrawn: !seesWithdrawn(caller) },
          undefined,
          listed,
        )
      : [];
    const counts = readsRecords ? await this.units.counts(id) : null;
    const events = can(caller, 'persons:read') ? await this.units.events(id, listed) : [];
    const numberKey = unit.number === null ? '' : identifierKey(String(unit.number));
    const labels =
      can(caller, 'evidence:read') && numberKey ? await this.units.labels(numberKey, listed) : [];
    if (readsRecords) {
      await this.audit.record(caller, {
        action: 'read',
        subjectType: 'unit',
        subjectId: id,
        details: { records: records.length },
      });
    }
    return {
      unit,
      aliases: await this.units.aliases(id),
      ancestors: await this.ancestors(unit),
      children: await this.units.children(id),
      counts,
      records,
      events,
      labels,
    };
  }

  async create(input: UnitInput, caller: Caller & { actor: { userId: string } }): Promise<BranchTable> {
    const nameEn = input.nameEn.trim();
    const nameAr = input.nameAr.trim();
    const issues = [
      ...(nameEn ? [] : [{ field: 'nameEn', message: 'give the English name' }]),
      ...(nameAr ? [] : [{ field: 'nameAr', message: 'give the Arabic name' }]),
    ];
    if (issues.length) throw new DomainError('invalid', 'a unit needs its names in both scripts', { issues });
    for (const [field, name] of [
      ['nameEn', nameEn],
      ['nameAr', nameAr],
    ] as const) {
      const owner = await this.owner(name);
      if (owner)
        throw new DomainError('conflict', `${JSON.stringify(name)} already names unit ${owner}`, { field });
    }
    const parent = input.parentId ? await this.require(input.parentId) : null;
    const at = this.now();
    const row: BranchTable = {
      id: `unit-${newId()}`,
      number: input.number ?? null,
      kind: input.kind,
      agency: parent?.agency ?? 'other',
      name_en: nameEn,
      name_ar: nameAr,
      governorate_id: input.governorateId ?? parent?.governorate_id ?? null,
      notes: input.notes?.trim() || null,
      parent_id: parent?.id ?? null,
      created_at: at,
      created_by: caller.actor.userId,
    };
    await this.ctx.store.transaction(async (trx) => {
      await new UnitRepository(trx).insert(row);
      const places = new PlaceRepository(trx);
      for (const name of new Set([nameEn, nameAr]))
        await places.addBranchAlias(row.id, name, { userId: caller.actor.userId, at });
    });
    await this.audit.record(caller, {
      action: 'unit_created',
      subjectType: 'unit',
      subjectId: row.id,
      details: { kind: row.kind, parent: row.parent_id },
    });
    return row;
  }

  /** The unit a name already resolves to (the gazetteer's or a stored alias), if any. */
  private async owner(name: string): Promise<string | undefined> {
    const known = resolveBranch(name);
    if (known) return known.id;
    const key = aliasKey(name);
    return key ? (await this.units.named(key))[0] : undefined;
  }

  /** A spelling met in the field, in either script; refused when it already names another unit. */
  async addAlias(id: string, alias: string, caller: Caller & { actor: { userId: string } }) {
    await this.require(id);
    const text = alias.trim().normalize('NFC');
    if (!aliasKey(text))
      throw new DomainError('invalid', 'the alias has no letters or digits', { field: 'alias' });
    const owner = await this.owner(text);
    if (owner && owner !== id) {
      throw new DomainError('conflict', `${JSON.stringify(text)} already names unit ${owner}`, {
        field: 'alias',
      });
    }
    await new PlaceRepository(this.ctx.store.db).addBranchAlias(id, text, {
      userId: caller.actor.userId,
      at: this.now(),
    });
    await this.audit.record(caller, {
      action: 'unit_alias_added',
      subjectType: 'unit',
      subjectId: id,
      details: { alias: text },
    });
    return this.units.aliases(id);
  }

  /** Puts a unit under another (or under none); refused when that would make a loop. */
  async setParent(id: string, parentId: string | null, caller: Caller) {
    const unit = await this.require(id);
    if (parentId) {
      const parent = await this.require(parentId);
      if (parent.id === id || (await this.ancestors(parent)).some((a) => a.id === id)) {
        throw new DomainError(
          'conflict',
          'a unit cannot be placed under itself or under a unit it contains',
          {
            field: 'parentId',
          },
        );
      }
    }
    await this.units.setParent(id, parentId);
    await this.audit.record(caller, {
      action: 'unit_parent_set',
      subjectType: 'unit',
      subjectId: id,
      details: { from: unit.parent_id, to: parentId },
    });
  }
}
