import type { Permission } from './policies.js';

/**
 * Which permission each guarded field of each presenter needs (docs/access.md "Who sees which field"). A field not
 * named here is shown to everyone who may call the route. The permission is checked with the caller's token
 * scopes (`visibilityOf`, `can`), so a token narrower than its owner's role sees less. `test/field-matrix.test.ts`
 * calls each route as every role, and by token with and without the guarding scope, and holds the answers to this
 * table; a path names a field in the answer (`record.original.arrest.place` is nested).
 */
export const guardedFields = {
  /** `GET /api/records/:id` (presentRecord). */
  record: {
    route: 'GET /api/records/:id',
    fields: {
      notes: 'forensic:read',
      forensicReportNumber: 'forensic:read',
      'original.notes': 'forensic:read',
      'original.arrest.place': 'forensic:read',
      createdBy: 'reports:read',
    },
  },
  /** `GET /api/review/pairs/:id`, `/api/review/next`, `/api/review/pairs` (presentReviewRecord). */
  reviewRecord: {
    route: 'GET /api/review/pairs/:id',
    fields: { 'a.notes': 'forensic:read', 'a.forensicReportNumber': 'forensic:read' },
  },
  /** `GET /api/reports/:id` (IntakeService.view). */
  report: {
    route: 'GET /api/reports/:id',
    fields: { contact: 'contacts:read', anteMortem: 'forensic:read' },
  },
  /** `GET /api/evidence/:id` (presentEvidence; test/evidence-provenance.test.ts holds it by token too). */
  evidenceItem: {
    route: 'GET /api/evidence/:id',
    fields: {
      'metadata (beyond capture date and camera)': 'evidence:provenance',
      'locations[].path': 'evidence:provenance',
      'custody[].details': 'evidence:provenance',
      'custody[].reason': 'evidence:provenance',
    },
  },
  /** `GET /api/ingest-runs[/:id]`. */
  ingestRun: {
    route: 'GET /api/ingest-runs/:id',
    fields: { custodian: 'evidence:provenance', note: 'evidence:provenance', roots: 'evidence:provenance' },
  },
} as const satisfies Record<string, { route: string; fields: Record<string, Permission> }>;
