import { PlaceRepository } from '../../store/repositories/places.js';
import { type Counted, StatsRepository } from '../../store/repositories/stats.js';
import type { AppContext } from '../context.js';

export interface ArchiveStats {
  totals: { records: number; persons: number; evidence: number; identifications: number; reports: number };
  byGovernorate: { id: string; nameEn: string; nameAr: string; count: number }[];
  byArrestYear: { year: string; count: number }[];
  byBranch: { id: string; nameEn: string; nameAr: string; count: number }[];
  identificationsByMonth: { month: string; count: number }[];
  activity: { day: string; ingested: number; imported: number }[];
}

/** Days of activity shown. */
const activityDays = 30;

/**
 * The overview's counts: totals; records by governorate, arrest year and branch; identifications confirmed per
 * month; items ingested and records added per day over the last 30 days. Counts only — never names.
 */
export class StatsService {
  constructor(private readonly ctx: AppContext) {}

  async overview(): Promise<ArchiveStats> {
    const ctx = this.ctx;
    const stats = new StatsRepository(ctx.store.db);
    const places = new PlaceRepository(ctx.store.db);
    const [governorates, branches] = await Promise.all([places.listGovernorates(), places.listBranches()]);
    const named = <T extends { id: string; nameEn: string; nameAr: string }>(rows: Counted[], list: T[]) => {
      const byId = new Map(list.map((p) => [p.id, p]));
      return rows
        .map((r) => {
          const place = byId.get(r.key);
          return {
            id: r.key,
            nameEn: place?.nameEn ?? r.key,
            nameAr: place?.nameAr ?? r.key,
            count: r.count,
          };
        })
        .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
    };
    const today = ctx.clock();
    const since = new Date(today - (activityDays - 1) * 86_400_000).toISOString().slice(0, 10);
    const [ingested, imported] = [
      new Map((await stats.perDay('evidence_items', since)).map((r) => [r.key, r.count])),
      new Map((await stats.perDay('records', since)).map((r) => [r.key, r.count])),
    ];
    const activity: ArchiveStats['activity'] = [];
    for (let i = activityDays - 1; i >= 0; i--) {
      const day = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
      activity.push({ day, ingested: ingested.get(day) ?? 0, imported: imported.get(day) ?? 0 });
    }
    return {
      totals: {
        records: await stats.count('records'),
        persons: await stats.count('persons'),
        evidence: await stats.count('evidence_items'),
        identifications: await stats.count('identifications'),
        reports: await stats.count('family_reports'),
      },
      byGovernorate: named(await stats.recordsByGovernorate(), governorates),
      byArrestYear: (await stats.recordsByArrestYear()).map((r) => ({ year: r.key, count: r.count })),
      byBranch: named(await stats.recordsByBranch(), branches),
      identificationsByMonth: (await stats.confirmationsByMonth()).map((r) => ({
        month: r.key,
        count: r.count,
      })),
      activity,
    };
  }
}
