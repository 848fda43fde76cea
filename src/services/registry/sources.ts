import { conflict } from '../../domain/errors.js';
import type { SourceKind } from '../../domain/registry.js';
import { type Source, SourceRepository } from '../../store/repositories/sources.js';
import type { AppContext } from '../context.js';

/** Sources: who or what records came from, with reliability notes. */
export class SourceService {
  private readonly sources: SourceRepository;

  constructor(ctx: AppContext) {
    this.sources = new SourceRepository(ctx.store.db);
  }

  list(): Promise<Source[]> {
    return this.sources.list();
  }

  get(id: string): Promise<Source | undefined> {
    return this.sources.get(id);
  }

  /** A source by its id or its name. */
  async find(idOrName: string): Promise<Source | undefined> {
    return (await this.sources.get(idOrName)) ?? (await this.sources.findByName(idOrName));
  }

  async create(
    input: { name: string; kind: SourceKind; description?: string; reliabilityNotes?: string },
    by: string,
  ): Promise<Source> {
    if (await this.sources.findByName(input.name)) {
      throw conflict(`a source is already named ${JSON.stringify(input.name)}`, 'name');
    }
    return this.sources.create({ ...input, createdBy: by });
  }
}
