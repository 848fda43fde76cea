import { ping } from '../../store/store.js';
import type { AppContext } from '../context.js';

/** What the process runs on: whether the database answers, and which one it is. */
export class HealthService {
  constructor(private readonly ctx: AppContext) {}

  /** Resolves when the database answers a trivial query; rejects otherwise. */
  async ping(): Promise<void> {
    await ping(this.ctx.store);
  }

  get dialect(): string {
    return this.ctx.store.capabilities.dialect;
  }
}
