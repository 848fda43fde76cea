import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../../src/access/passwords.js';
import type { Role } from '../../src/access/roles.js';
import { SharpImageDecoder } from '../../src/evidence/sharp-image-decoder.js';
import { ingest } from '../../src/services/ingest/ingest.js';
import { ReviewService } from '../../src/services/review/review.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { syntheticPhoto } from '../evidence-files.js';
import { HttpSession } from './http.js';
import type { RunningServer } from './server.js';

/**
 * SYNTHETIC test data for the browser tests: invented names, an invented source. Users are made in the store (as
 * `athar users add` would); records, persons and events go through the HTTP API as a documenter; candidate pairs
 * through the review service (the matcher's output).
 */
export const syntheticPassword = 'synthetic-e2e-password';

export interface SeededArchive {
  users: Record<'documenter' | 'reviewer' | 'liaison', { username: string; password: string }>;
  personId: string;
  /** The person's two records: the family's Arabic report and a Latin-script list line. */
  arabicRecordId: string;
  latinRecordId: string;
  pairId: string;
  /** A synthetic photo (graphic, as every ingested photo starts), proposed as depicting the person. */
  evidenceId: string;
  /** The pair's two records in stored order (record_a < record_b). */
  khaled: [string, string];
}

async function makeUser(server: RunningServer, role: Role): Promise<{ username: string; password: string }> {
  const username = `synthetic-${role}`;
  await new UserRepository(server.ctx.store.db).create({
    username,
    displayName: `Synthetic ${role}`,
    passwordHash: await hashPassword(syntheticPassword),
    role,
  });
  return { username, password: syntheticPassword };
}

interface BulkAnswer {
  items: { index: number; ok: boolean; id?: string; error?: string }[];
}

/** A made-up explanation in the linkage model's shape, so that the review screen draws agreement and a waterfall. */
function syntheticExplanation(recordA: string, recordB: string) {
  const steps = [
    { comparison: 'first_name', level: 'transliteration', valueA: 'Khaled', valueB: 'خالد', weight: 6.2 },
    { comparison: 'father_name', level: 'transliteration', valueA: 'Omar', valueB: 'عمر', weight: 4.1 },
    { comparison: 'family_name', level: 'transliteration', valueA: 'Haddad', valueB: 'حداد', weight: 5.3 },
    { comparison: 'mother_name', level: 'missing', valueA: '', valueB: 'مريم', weight: 0 },
    {
      comparison: 'birth_date',
      level: 'exact_date',
      valueA: '1990-07-02',
      valueB: '1990-07-02',
      weight: 7.4,
    },
    { comparison: 'governorate', level: 'same', valueA: 'homs', valueB: 'homs', weight: 1.2 },
    {
      comparison: 'arrest_date',
      level: 'same_year_date_differs',
      valueA: '2012-11-03',
      valueB: '2012-11',
      weight: -1.6,
    },
  ];
  const prior = -18.8;
  let running = prior;
  const withTotals = steps.map((step) => {
    running += step.weight;
    return { ...step, cumulative: running };
  });
  const probability = 2 ** running / (1 + 2 ** running);
  return {
    recordA,
    recordB,
    modelVersion: 'synthetic-e2e',
    prior: { weight: prior, probability: 2 ** prior / (1 + 2 ** prior) },
    context: 'strangers',
    steps: withTotals,
    bayesFactor: running - prior,
    total: running,
    probability,
  };
}

export async function seedArchive(server: RunningServer): Promise<SeededArchive> {
  const users = {
    documenter: await makeUser(server, 'documenter'),
    reviewer: await makeUser(server, 'reviewer'),
    liaison: await makeUser(server, 'liaison'),
  };
  const api = await new HttpSession(server.url).signIn(users.documenter.username, users.documenter.password);
  const source = await api.post<{ id: string }>('/api/sources', {
    name: 'Synthetic test list (not real people)',
    kind: 'document',
    description: 'Invented for the browser tests.',
  });
  const rows = [
    {
      kind: 'family_report',
      fullName: 'محمد أحمد الحلبي',
      motherName: 'فاطمة',
      birthDate: '1985-03-14',
      governorate: 'Aleppo',
      arrestDate: '2013-05-21',
      arrestingBranch: '215',
    },
    {
      kind: 'registry_line',
      fullName: 'Mohammad Ahmad al-Halabi',
      birthDate: '1985',
      governorate: 'Aleppo',
      arrestDate: '2013-05',
      arrestingBranch: '215',
      detaineeNumber: '4471',
    },
    {
      kind: 'registry_line',
      fullName: 'Khaled Omar Haddad',
      birthDate: '1990-07-02',
      governorate: 'Homs',
      arrestDate: '2012-11-03',
    },
    {
      kind: 'family_report',
      fullName: 'خالد عمر حداد',
      motherName: 'مريم',
      birthDate: '1990-07-02',
      governorate: 'Homs',
      arrestDate: '2012-11',
    },
  ].map((r) => ({ ...r, sourceId: source.id }));
  const made = await api.post<BulkAnswer>('/api/records/bulk', { items: rows });
  const ids = made.items.map((i) => {
    if (!i.ok || !i.id) throw new Error(`seeding record ${i.index} failed: ${i.error}`);
    return i.id;
  });
  const [arabicRecordId, latinRecordId, khaledLatin, khaledArabic] = ids as [string, string, string, string];
  const person = await api.post<{ id: string }>('/api/persons', {
    recordIds: [arabicRecordId, latinRecordId],
    note: 'synthetic: one person in two scripts',
  });
  await api.post('/api/events', {
    personId: person.id,
    recordId: arabicRecordId,
    type: 'arrest',
    dateStart: '2013-05-21',
    datePrecision: 'day',
    place: 'حلب',
    branch: '215',
  });
  await api.post('/api/events', {
    personId: person.id,
    type: 'held_at',
    dateStart: '2013-06',
    datePrecision: 'month',
    branch: '215',
    description: 'Synthetic sighting in detention',
  });

  await new ReviewService(server.ctx.store).propose([
    {
      recordA: khaledLatin,
      recordB: khaledArabic,
      probability: 0.93,
      matchWeight: 3.8,
      modelVersion: 'synthetic-e2e',
      explanation: syntheticExplanation(khaledLatin, khaledArabic),
    },
  ]);
  const pair = await server.ctx.store.db
    .selectFrom('candidate_pairs')
    .select('id')
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-e2e-photos-'));
  fs.writeFileSync(path.join(folder, 'synthetic-card-215.jpg'), await syntheticPhoto(8101, 800, 600));
  const documenterId = (
    await server.ctx.store.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', users.documenter.username)
      .executeTakeFirstOrThrow()
  ).id;
  await ingest(server.ctx, {
    paths: [folder],
    actor: documenterId,
    source: 'synthetic test photos',
    decoder: new SharpImageDecoder(),
  });
  fs.rmSync(folder, { recursive: true, force: true });
  const evidence = await server.ctx.store.db
    .selectFrom('evidence_items')
    .select('id')
    .executeTakeFirstOrThrow();
  await api.post('/api/identifications', {
    evidenceId: evidence.id,
    personId: person.id,
    basis: 'synthetic: the card number matches the list line',
  });

  const khaled = (khaledLatin < khaledArabic ? [khaledLatin, khaledArabic] : [khaledArabic, khaledLatin]) as [
    string,
    string,
  ];
  return {
    users,
    personId: person.id,
    arabicRecordId,
    latinRecordId,
    pairId: pair.id,
    khaled,
    evidenceId: evidence.id,
  };
}
