/**
 * The simulated worlds the estimators are judged on (bench/suites/estimate.ts) — SYNTHETIC. Each names the method
 * it suits: the log-linear models when the truth is a log-linear model with pairwise dependence, LCMCR when
 * capture is heterogeneous across latent classes. Sizes run from 1,000 to 500,000 people and 3 to 6 lists.
 */
import type { Scenario } from './simulate.js';

export interface JudgedScenario extends Scenario {
  /** 'neither': a world past both methods' reach, kept to show the limit (docs/estimation.md). */
  suits: 'loglinear' | 'lcmcr' | 'neither';
  /** What the world is, in words. */
  about: string;
}

const logit = (p: number) => Math.log(p / (1 - p));
const lg = (...ps: number[]) => ps.map(logit);
const one = (size: number) => [{ name: 'all', size }];

export const scenarios: JudgedScenario[] = [
  {
    name: 'independent-3x1k',
    about: '3 independent lists (30%, 25%, 20%), 1,000 people',
    suits: 'loglinear',
    lists: 3,
    strata: one(1000),
    capture: { kind: 'loglinear', logits: lg(0.3, 0.25, 0.2) },
  },
  {
    name: 'small-lists-3x5k',
    about: '3 small independent lists (5%, 8%, 10%), 5,000 people: few overlaps',
    suits: 'loglinear',
    lists: 3,
    strata: one(5000),
    capture: { kind: 'loglinear', logits: lg(0.05, 0.08, 0.1) },
  },
  {
    name: 'positive-4x20k',
    about: '4 lists, two positively dependent pairs (log odds ratios +1.0, +0.7), 20,000 people',
    suits: 'loglinear',
    lists: 4,
    strata: one(20_000),
    capture: {
      kind: 'loglinear',
      logits: lg(0.2, 0.15, 0.25, 0.1),
      pairs: [
        { lists: [0, 1], logOddsRatio: 1.0 },
        { lists: [2, 3], logOddsRatio: 0.7 },
      ],
    },
  },
  {
    name: 'mixed-5x100k',
    about: '5 lists, one negative pair (−0.8) and two positive (+0.6, +0.5), 100,000 people',
    suits: 'loglinear',
    lists: 5,
    strata: one(100_000),
    capture: {
      kind: 'loglinear',
      logits: lg(0.15, 0.1, 0.2, 0.12, 0.08),
      pairs: [
        { lists: [0, 2], logOddsRatio: -0.8 },
        { lists: [1, 3], logOddsRatio: 0.6 },
        { lists: [3, 4], logOddsRatio: 0.5 },
      ],
    },
  },
  {
    name: 'mixed-6x500k',
    about: '6 lists (5–15%), pairs +0.8, −0.6, +0.4, 500,000 people',
    suits: 'loglinear',
    lists: 6,
    strata: one(500_000),
    capture: {
      kind: 'loglinear',
      logits: lg(0.1, 0.08, 0.15, 0.05, 0.12, 0.07),
      pairs: [
        { lists: [0, 1], logOddsRatio: 0.8 },
        { lists: [2, 5], logOddsRatio: -0.6 },
        { lists: [3, 4], logOddsRatio: 0.4 },
      ],
    },
  },
  {
    name: 'classes-4x5k',
    about: '4 lists, 2 latent classes (30% easy to find: 45–60%; 70% hard: 8–15%), 5,000 people',
    suits: 'lcmcr',
    lists: 4,
    strata: one(5000),
    capture: {
      kind: 'classes',
      classes: [
        { share: 0.3, probabilities: [0.6, 0.5, 0.55, 0.45] },
        { share: 0.7, probabilities: [0.1, 0.15, 0.08, 0.12] },
      ],
    },
  },
  {
    name: 'classes-5x20k',
    about: '5 lists, 2 latent classes (20% at 40–50%, 80% at 5–12%), 20,000 people',
    suits: 'lcmcr',
    lists: 5,
    strata: one(20_000),
    capture: {
      kind: 'classes',
      classes: [
        { share: 0.2, probabilities: [0.5, 0.4, 0.45, 0.5, 0.4] },
        { share: 0.8, probabilities: [0.08, 0.12, 0.05, 0.1, 0.06] },
      ],
    },
  },
  {
    name: 'classes-6x50k',
    about: '6 lists, 3 latent classes (10% / 30% / 60%), 50,000 people',
    suits: 'lcmcr',
    lists: 6,
    strata: one(50_000),
    capture: {
      kind: 'classes',
      classes: [
        { share: 0.1, probabilities: [0.6, 0.5, 0.55, 0.6, 0.5, 0.45] },
        { share: 0.3, probabilities: [0.25, 0.2, 0.3, 0.15, 0.2, 0.25] },
        { share: 0.6, probabilities: [0.05, 0.08, 0.04, 0.06, 0.07, 0.05] },
      ],
    },
  },
  {
    // A long tail of people almost no list finds: no finite mixture holds it, and pairwise terms only approximate
    // it. R's LCMCR gives the same posterior here as athar's (docs/estimation.md): the shortfall is the model's.
    name: 'continuous-5x20k',
    about: '5 lists, continuous heterogeneity (Rasch: logit p = a_j + 1.0·θ, θ ~ N(0, 1)), 20,000 people',
    suits: 'neither',
    lists: 5,
    strata: one(20_000),
    capture: { kind: 'continuous', logits: lg(0.25, 0.2, 0.3, 0.22, 0.18), spread: 1.0 },
  },
];
