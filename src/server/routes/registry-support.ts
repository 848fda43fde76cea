/** What the registry's route files share: their services per context, and error mapping. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assertionKinds } from '../../domain/case-status.js';
import type { AppContext } from '../../services/context.js';
import { RecordSearch } from '../../services/registry/record-search.js';
import { RegistryError, RegistryService } from '../../services/registry/registry.js';
import { Problem } from '../problems.js';

const services = new WeakMap<AppContext, { registry: RegistryService; search: RecordSearch }>();

export function registryServices(ctx: AppContext): { registry: RegistryService; search: RecordSearch } {
  let s = services.get(ctx);
  if (!s) {
    const registry = new RegistryService(ctx.store, ctx.clock);
    s = { registry, search: new RecordSearch(ctx.store, registry) };
    services.set(ctx, s);
  }
  return s;
}

const camel: Record<string, string> = {
  record_id: 'externalId',
  source: 'sourceId',
  full_name: 'fullName',
  first_name: 'firstName',
  father_name: 'fatherName',
  grandfather_name: 'grandfatherName',
  family_name: 'familyName',
  mother_name: 'motherName',
  birth_date: 'birthDate',
  birth_year: 'birthYear',
  place_of_origin: 'placeOfOrigin',
  arrest_date: 'arrestDate',
  arresting_branch: 'arrestingBranch',
  detainee_number: 'detaineeNumber',
  death_date: 'deathDate',
  forensic_report_number: 'forensicReportNumber',
};

/** The API's name for a person-record column. */
export function apiField(column: string): string {
  return camel[column] ?? column;
}

/** Runs a service call, turning its refusals into problem+json. */
export async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RegistryError) {
      throw new Problem(
        error.code,
        error.message,
        error.issues.length
          ? {
              errors: error.issues.map((i) => ({
                path: i.field === 'record' ? 'body' : `body.${apiField(i.field)}`,
                message: i.message,
              })),
            }
          : {},
      );
    }
    throw error;
  }
}

/** The acting user's id (routes that write require a signed-in actor). */
export function actorId(request: FastifyRequest): string {
  if (!request.actor) throw new Problem('unauthenticated');
  return request.actor.userId;
}

/** What a claim says, shared by `POST /api/assertions` and `POST /api/records/:id/assertions`. */
export const claimFields = {
  kind: z.enum(assertionKinds),
  statement: z.string().max(4000).optional(),
  assertedAt: z
    .string()
    .regex(/^\d{4}(-\d{2}(-\d{2}(T[\d:.]+Z)?)?)?$/)
    .optional(),
  sourceId: z.string().min(1).optional(),
};
