import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { guardedFields } from '../src/access/fields.js';
import { allows, type Permission, permissionsOf } from '../src/access/policies.js';
import { type Role, roles } from '../src/access/roles.js';
import { newSecret, secretDigest } from '../src/access/secrets.js';
import { newId, nowIso } from '../src/ids.js';
import { readModelFile } from '../src/services/batch/linkage-model-file.js';
import { ReviewService } from '../src/services/review/review.js';
import { CredentialRepository } from '../src/store/repositories/credentials.js';
import { SourceRepository } from '../src/store/repositories/sources.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/**
 * The route × role matrix for fields (issue 21): for each presenter in `guardedFields`, every role that may call
 * its route, by session and by token (with all of the role's scopes, and without the guarding one), sees a guarded
 * field exactly when the role and the scopes hold its permission. Every value here is synthetic.
 */
describeEachDialect('field × role × scope matrix', (store) => {
  let api: ApiHarness;
  let reportId: string;
  let familyRecord: string;
  let pairId: string;

  /** The value at a dotted path, or undefined. */
  function at(body: unknown, path: string): unknown {
    let v: unknown = body;
    for (const part of path.split('.')) {
      if (v === null || typeof v !== 'object') return undefined;
      v = (v as Record<string, unknown>)[part];
    }
    return v;
  }

  async function tokenFor(client: ApiClient, scopes: readonly Permission[]): Promise<string> {
    const token = `athar_${newSecret()}`;
    await new CredentialRepository(store().db).createToken({
      userId: client.user?.id ?? '',
      name: 'field matrix (synthetic)',
      tokenHash: secretDigest(token),
      scopes,
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      now: nowIso(),
    });
    return token;
  }

  beforeAll(async () => {
    api = await createApi(store(), { ATHAR_CONTACTS_KEY: randomBytes(32).toString('base64') });
    const liaison = await api.as('liaison');
    const filed = await liaison.post('/api/reports', {
      person: { fullName: 'Synthetic Field Person', sex: 'male', birthDate: '1980' },
      arrest: { date: '2012-04-01', place: 'SYNTHETIC checkpoint' },
      anteMortem: { heightCm: 171, medicalHistory: 'SYNTHETIC history' },
      consent: { internalUse: true },
      contact: { name: 'Synthetic Relative', phone: '+963 900 111 222' },
      language: 'en',
    });
    expect(filed.statusCode, filed.body).toBe(201);
    reportId = filed.json().id;
    const report = await store()
      .db.selectFrom('family_reports')
      .select('record_id')
      .where('id', '=', reportId)
      .executeTakeFirstOrThrow();
    familyRecord = report.record_id;
    // Fixture: a forensic number and a notes column in the original, as an imported line would carry.
    const row = await store()
      .db.selectFrom('records')
      .select('original')
      .where('id', '=', familyRecord)
      .executeTakeFirstOrThrow();
    await store()
      .db.updateTable('records')
      .set({
        forensic_report_number: 'SYNTHETIC-FR-1',
        original: JSON.stringify({ ...JSON.parse(row.original), notes: 'SYNTHETIC column' }),
      })
      .where('id', '=', familyRecord)
      .execute();
    const source = await new SourceRepository(store().db).findOrCreate('synthetic field registry', 'other');
    const other = newId();
    await store()
      .db.insertInto('records')
      .values({
        id: other,
        source_id: source.id,
        external_id: other,
        kind: 'registry_line',
        original: '{}',
        full_name: 'Synthetic Field Person',
        first_name: null,
        father_name: null,
        grandfather_name: null,
        family_name: null,
        mother_name: null,
        name_normalized: null,
        name_script: 'latn',
        sex: 'm',
        birth_date: null,
        birth_year: 1980,
        governorate_id: null,
        place_of_origin: null,
        arrest_date: null,
        arresting_branch_id: null,
        detainee_number: null,
        death_date: null,
        forensic_report_number: 'SYNTHETIC-FR-2',
        notes: 'SYNTHETIC note',
        created_at: nowIso(),
        created_by: null,
      })
      .execute();
    await new ReviewService(store()).propose([
      {
        recordA: familyRecord,
        recordB: other,
        probability: 0.9,
        matchWeight: 5,
        modelVersion: readModelFile().version,
      },
    ]);
    const pair = await store().db.selectFrom('candidate_pairs').select('id').executeTakeFirstOrThrow();
    pairId = pair.id;
  });
  afterAll(async () => api.close());

  const urls = () => ({
    record: `/api/records/${familyRecord}`,
    reviewRecord: `/api/review/pairs/${pairId}`,
    report: `/api/reports/${reportId}`,
  });

  it('shows each guarded field exactly to the roles and scopes that hold its permission', async () => {
    const failures: string[] = [];
    const routes = urls();
    for (const [presenter, url] of Object.entries(routes) as [keyof typeof routes, string][]) {
      const { route, fields } = guardedFields[presenter];
      const access = route.split(' ')[1] as string;
      for (const role of roles) {
        const client = await api.as(role);
        const res = await client.get(url);
        // Which roles may call the route is the route matrix's; here only those that may.
        if (res.statusCode === 403) continue;
        expect(res.statusCode, `${presenter} as ${role}: ${res.body}`).toBe(200);
        const callers: [string, Permission[] | null][] = [
          ['session', null],
          ['token, all scopes', [...permissionsOf(role)]],
        ];
        for (const permission of new Set(Object.values(fields) as Permission[])) {
          if (permissionsOf(role).has(permission)) {
            callers.push([
              `token without ${permission}`,
              [...permissionsOf(role)].filter((p) => p !== permission),
            ]);
          }
        }
        for (const [how, scopes] of callers) {
          const body =
            scopes === null
              ? res.json()
              : (
                  await api.app.inject({
                    method: 'GET',
                    url,
                    headers: { authorization: `Bearer ${await tokenFor(client, scopes)}` },
                  })
                ).json();
          for (const [path, permission] of Object.entries(fields) as [string, Permission][]) {
            const expected = allows(permission, role, scopes ? new Set(scopes) : undefined);
            const value = at(body, path);
            const shown = value !== undefined && value !== null;
            if (shown !== expected) {
              failures.push(
                `${access} ${path} as ${role} by ${how}: expected ${expected ? 'shown' : 'hidden'}`,
              );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('names in the table only roles and permissions the policy knows', () => {
    const known = new Set(roles.flatMap((r: Role) => [...permissionsOf(r)]));
    for (const { fields } of Object.values(guardedFields)) {
      for (const permission of Object.values(fields)) expect(known.has(permission)).toBe(true);
    }
  });
});
