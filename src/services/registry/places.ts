import { resolveBranch, resolveGovernorate } from '../../gazetteer/index.js';
import { type BranchRow, type GovernorateRow, PlaceRepository } from '../../store/repositories/places.js';
import type { AppContext } from '../context.js';

/** Governorates and branches: the gazetteer as seeded, with aliases added in the database. */
export class PlaceService {
  private readonly places: PlaceRepository;

  constructor(ctx: AppContext) {
    this.places = new PlaceRepository(ctx.store.db);
  }

  branches(): Promise<BranchRow[]> {
    return this.places.listBranches();
  }

  governorates(): Promise<GovernorateRow[]> {
    return this.places.listGovernorates();
  }

  /** A governorate's id from its id or any alias (the gazetteer's or one stored since), or undefined. */
  async governorateId(text: string): Promise<string | undefined> {
    return resolveGovernorate(text)?.id ?? (await this.places.findGovernorateByAlias(text));
  }

  /** A branch's id from its id or any alias, or undefined. */
  async branchId(text: string): Promise<string | undefined> {
    return resolveBranch(text)?.id ?? (await this.places.findBranchByAlias(text));
  }
}
