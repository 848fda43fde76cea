import { EvidenceError } from '../services/evidence/evidence.js';
import { IdentificationError } from '../services/review/identifications.js';
import { ReviewError } from '../services/review/review.js';
import { Problem } from './problems.js';

/** The field an "invalid" message names ("reason: …" → body.reason), for problem+json errors. */
function fieldOf(message: string): string | undefined {
  return /^([A-Za-z][\w.]*): /.exec(message)?.[1];
}

function invalid(message: string): Problem {
  const field = fieldOf(message);
  return field
    ? new Problem('validation_failed', message, { errors: [{ path: `body.${field}`, message }] })
    : new Problem('bad_request', message);
}

/** Turns the review area's service errors into problems with stable codes; anything else is rethrown. */
export function asProblem(error: unknown): never {
  if (error instanceof EvidenceError) {
    switch (error.code) {
      case 'not_found':
        throw new Problem('not_found', error.message);
      case 'no_view':
        throw new Problem('conflict', error.message);
      case 'ambiguous':
        throw new Problem('bad_request', error.message);
      default:
        throw invalid(error.message);
    }
  }
  if (error instanceof IdentificationError || error instanceof ReviewError) {
    if (error.code === 'not_found') throw new Problem('not_found', error.message);
    if (error.code === 'conflict') throw new Problem('conflict', error.message);
    throw invalid(error.message);
  }
  throw error;
}

/** Runs a service call, answering its known errors as problems. */
export async function serviced<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    asProblem(error);
  }
}
