import { type BranchRow, type GovernorateRow, PlaceRepository } from '../../store/repositories/places.js';
import type { AppContext } from '../context.js';

export async function listBranches(ctx: AppContext): Promise<BranchRow[]> {
  return new PlaceRepository(ctx.store.db).listBranches();
}

export async function listGovernorates(ctx: AppContext): Promise<GovernorateRow[]> {
  return new PlaceRepository(ctx.store.db).listGovernorates();
}
