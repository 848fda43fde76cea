import { msg } from './msg.js';

/** RFC 9457 problem details as athar's API sends them. */
export interface ProblemBody {
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
  /** Seconds to wait, on a sign-in held back (429). */
  retryAfter?: number;
}

/** Plain-language sentences (translation keys) for each problem code a person can meet. */
const sentences: Record<string, string> = {
  bad_request: msg('Something in the request was not right. Check what you entered and try again.'),
  validation_failed: msg('Some fields are missing or not valid. Check them and try again.'),
  unauthenticated: msg('The user name or password is not right, or your session has ended. Please sign in.'),
  csrf_failed: msg('Your session needs refreshing. Reload the page and try again.'),
  forbidden: msg('Your role does not allow this.'),
  totp_required: msg('Enter the six-digit code from your authenticator app.'),
  not_found: msg('Nothing was found here.'),
  conflict: msg('This changed while you were looking at it. Reload and try again.'),
  payload_too_large: msg('What you sent is too large.'),
  rate_limited: msg('Too many attempts. Wait a minute and try again.'),
  internal: msg('Something went wrong on our side. It has been logged; please try again later.'),
  unavailable: msg('The service cannot answer right now. Please try again shortly.'),
  network: msg('The service cannot be reached. Check your connection and try again.'),
};

/** What a person held back by the sign-in back-off reads: the wait, rounded up to seconds or minutes. */
export function backoffSentence(seconds: number): { key: string; count: number } {
  if (seconds < 90) return { key: msg('Too many attempts. Try again in {{n}} seconds.'), count: seconds };
  return { key: msg('Too many attempts. Try again in {{n}} minutes.'), count: Math.ceil(seconds / 60) };
}

export function problemSentence(code: string | undefined): string {
  return sentences[code ?? ''] ?? msg('Something went wrong. Please try again.');
}

/** The fields a validation problem names, without the request part ("body.person.fullName" → "person.fullName"). */
export function problemFields(problem: ProblemBody): string[] {
  return (problem.errors ?? [])
    .map((e) => e.path.replace(/^(body|querystring|params)\.?/, ''))
    .filter(Boolean);
}
