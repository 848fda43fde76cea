import {
  credentialsGeneration as generationNow,
  type SessionUser,
} from '../../store/repositories/credentials.js';

/**
 * A short in-process memory of session lookups, so that a signed-in page costs no session query while the same
 * cookie keeps coming (the person page made one per request). Safe because every write in this process that could
 * change a lookup's answer — sign-out, password change or reset, disabling a user, a role change, TOTP enrolment —
 * goes through the credential repositories, which count a generation before the write and again after it (the
 * services count once more after their transactions commit), and a lookup fills the cache only
 * if no such write happened while it read. Other processes sharing the database are seen after at most `ttlMs`
 * (docs/access.md).
 */
interface Entry {
  user: SessionUser;
  generation: number;
  until: number;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly ttlMs = 5_000,
    private readonly limit = 10_000,
  ) {}

  /** The remembered lookup, if fresh, unchanged since, and its session not expired at `now`. */
  get(sessionId: string, now: number, nowText: string): SessionUser | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.generation !== generationNow() || now >= entry.until || entry.user.expiresAt <= nowText) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.user;
  }

  /** Remembers a lookup read in generation `readIn` (`credentialsGeneration()` taken before reading) (dropped if anything changed meanwhile). */
  remember(sessionId: string, user: SessionUser, readIn: number, now: number): void {
    if (readIn !== generationNow()) return;
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(sessionId, { user, generation: readIn, until: now + this.ttlMs });
  }
}
