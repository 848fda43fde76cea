import type { Caller } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import {
  type CaptureHistory,
  defaultEstimateOptions,
  type EstimateOptions,
  type EstimateReport,
  estimateFromHistories,
} from '../../estimate/index.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import type { SourceService } from '../registry/sources.js';

/** What a registry's persons can be counted by. */
export const estimateStrata = ['governorate', 'year', 'sex', 'branch'] as const;
export type EstimateStratum = (typeof estimateStrata)[number];

/** Lists the core can weigh at once: log-linear models over more than six are searched too thinly to trust. */
const maxLists = 6;

export interface RegistryEstimate extends EstimateReport {
  /** The sources taken as lists, with how many of the registry's persons each holds. */
  sources: { id: string; name: string; persons: number }[];
  by: EstimateStratum | null;
  persons: number;
}

/**
 * How many are missing, from the registry (docs/estimation.md): the sources are the lists, the persons of the
 * tracing loop the linkage (a person is on a list when one of its records comes from that source). Records a
 * family withdrew from internal use are left out. Strata by the governorate, the arrest year, the sex or the
 * arresting branch that most of a person's records give.
 */
export class EstimateService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: { sources: SourceService; audit: AuditService },
  ) {}

  async fromRegistry(
    options: { by?: EstimateStratum; lists?: readonly string[]; estimate?: Partial<EstimateOptions> },
    caller: Caller,
  ): Promise<RegistryEstimate> {
    const { histories, sources, persons } = await this.histories(options.by, options.lists);
    const report = estimateFromHistories(
      { lists: sources.map((s) => s.name), histories },
      { ...defaultEstimateOptions, ...options.estimate },
    );
    await this.deps.audit.record(caller, {
      action: 'estimate',
      details: {
        by: options.by ?? null,
        lists: sources.map((s) => s.id),
        method: options.estimate?.method ?? 'both',
      },
    });
    return { ...report, sources, by: options.by ?? null, persons };
  }

  /** Each person's capture history: which sources hold it, and its stratum. */
  async histories(
    by: EstimateStratum | undefined,
    named: readonly string[] | undefined,
  ): Promise<{ histories: CaptureHistory[]; sources: RegistryEstimate['sources']; persons: number }> {
    let chosen: { id: string; name: string }[];
    if (named && named.length > 0) {
      chosen = [];
      for (const ref of named) {
        const source = await this.deps.sources.find(ref);
        if (!source)
          throw new DomainError('invalid', `no source is known as ${JSON.stringify(ref)}`, {
            field: 'lists',
          });
        if (!chosen.some((c) => c.id === source.id)) chosen.push({ id: source.id, name: source.name });
      }
    } else {
      chosen = (await this.deps.sources.list()).map((s) => ({ id: s.id, name: s.name }));
    }
    if (chosen.length > maxLists && !(named && named.length > 0)) {
      throw new DomainError(
        'invalid',
        `the registry holds ${chosen.length} sources; name the three to ${maxLists} that are lists of the same population`,
        { field: 'lists' },
      );
    }
    if (chosen.length > maxLists)
      throw new DomainError('invalid', `name at most ${maxLists} lists`, { field: 'lists' });
    const listOf = new Map(chosen.map((s, i) => [s.id, i]));
    const persons = new Map<string, { mask: number; strata: Map<string, number> }>();
    const links = new RecordLinkRepository(this.ctx.store.db);
    let after: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<RecordLinkRepository['capturePage']>> = await links.capturePage(
        after,
        5000,
      );
      for (const r of page) {
        const list = listOf.get(r.source_id);
        if (list === undefined) continue;
        let p = persons.get(r.person_id);
        if (!p) {
          p = { mask: 0, strata: new Map() };
          persons.set(r.person_id, p);
        }
        p.mask |= 1 << list;
        const stratum = stratumOf(by, r);
        if (stratum) p.strata.set(stratum, (p.strata.get(stratum) ?? 0) + 1);
      }
      if (page.length > 0) after = (page[page.length - 1] as { record_id: string }).record_id;
      if (page.length < 5000) break;
    }
    const sizes = new Array<number>(chosen.length).fill(0);
    const histories: CaptureHistory[] = [];
    for (const p of persons.values()) {
      for (let i = 0; i < chosen.length; i++) if (p.mask & (1 << i)) sizes[i] = (sizes[i] as number) + 1;
      const top = [...p.strata.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
      histories.push({ mask: p.mask, ...(by ? { stratum: top ?? 'unknown' } : {}) });
    }
    return {
      histories,
      sources: chosen.map((s, i) => ({ ...s, persons: sizes[i] as number })),
      persons: persons.size,
    };
  }
}

function stratumOf(
  by: EstimateStratum | undefined,
  r: {
    governorate_id: string | null;
    arrest_date: string | null;
    sex: string | null;
    arresting_branch_id: string | null;
  },
): string | null {
  switch (by) {
    case 'governorate':
      return r.governorate_id;
    case 'year':
      return r.arrest_date ? r.arrest_date.slice(0, 4) : null;
    case 'sex':
      return r.sex;
    case 'branch':
      return r.arresting_branch_id;
    default:
      return null;
  }
}
