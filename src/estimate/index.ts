/**
 * Multiple systems estimation: how many people no list has recorded. A pure core (data in, data out); see
 * docs/estimation.md for the methods and what the numbers mean.
 */
export {
  defaultEstimateOptions,
  type EstimateInput,
  type EstimateOptions,
  type EstimateReport,
  estimateFromHistories,
  type LinkageSummary,
  type Method,
  type MethodEstimate,
  type MethodOutcome,
  type MethodRefusal,
  type StratumEstimate,
  type TotalEstimate,
  type TotalOutcome,
} from './estimate.js';
export { fitPoisson, type PoissonFit, poissonDeviance } from './irls.js';
export { defaultLcmcrOptions, estimateLcmcr, type LcmcrOptions, type LcmcrResult } from './lcmcr.js';
export { type CandidatePair, type LinkageRecord, samplePersonSets } from './linkage.js';
export { joinLists, type ListFile, parseListFile } from './list-file.js';
export {
  type Criterion,
  defaultLoglinearOptions,
  designMatrix,
  estimateLoglinear,
  fitModel,
  type LoglinearOptions,
  type LoglinearResult,
  modelName,
  pairsOf,
  profileInterval,
} from './loglinear.js';
export {
  type CaptureModel,
  type Scenario,
  simulatePeople,
  simulateTables,
  strataOf,
  syntheticLabel,
} from './simulate.js';
export {
  ALL,
  type CaptureHistory,
  EstimateInputError,
  type EstimateWarning,
  type Refusal,
  type StratumTable,
  summarise,
  tally,
} from './tables.js';
