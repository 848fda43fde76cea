/** The test worlds, and athar synth beside them, as labelled worlds for evaluateWorld. */
import { generate } from '../../src/linkage/synth/generator.js';
import { commissionWorld } from './commission.js';
import { diasporaWorld } from './diaspora.js';
import type { LabelledWorld } from './evaluate.js';
import { registriesWorld } from './registries.js';
import { ceilingOf, type World } from './world.js';

export function labelled(world: World): LabelledWorld & { recallCeiling: number } {
  const c = ceilingOf(world);
  return {
    name: world.name,
    records: world.records,
    identifiable: c.identifiable,
    ceiling: c.f1,
    recallCeiling: c.recall,
  };
}

/** athar synth as a world: its own ceiling (a share of true pairs, i.e. a recall) stated as F1 at precision 1. */
export function synthWorld(people: number, seed = 1): LabelledWorld & { recallCeiling: number } {
  const out = generate({ people, seed });
  const recall = out.stats.ceiling;
  return {
    name: 'athar synth',
    records: out.records.map((r) => ({ fields: r.fields, person: r.person })),
    ceiling: (2 * recall) / (1 + recall),
    recallCeiling: recall,
  };
}

export const worldNames = ['diaspora', 'registries', 'commission', 'synth'] as const;
export type WorldName = (typeof worldNames)[number];

export function makeWorld(
  name: WorldName,
  people: number,
  seed = 1,
): LabelledWorld & { recallCeiling: number } {
  if (name === 'diaspora') return labelled(diasporaWorld(people, seed));
  if (name === 'registries') return labelled(registriesWorld(people, seed));
  if (name === 'commission') return labelled(commissionWorld(people, seed));
  return synthWorld(people, seed);
}
