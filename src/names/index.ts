/**
 * Names: Arabic and Latin name normalisation, parsing, blocking keys and cross-script similarity. A pure module:
 * no database, no network, no file I/O. See docs/names.md for the design and its measured quality.
 */
export { ARTICLE_WORDS } from './canonical.js';
export { keys, phoneticKey } from './keys.js';
export { isKunya, isWomansName, type LexiconEntry, lexiconEntries, nicknameNames } from './lexicon.js';
export { clean, detectScript, normalize, type Script, spellMarkedLetters } from './normalize.js';
export {
  type CapitalsReading,
  capitalsReading,
  isGivenNameOnly,
  type NamePart,
  type NameParts,
  type OrderReading,
  orderReading,
  type ParsedName,
  type ParseOptions,
  type PartRole,
  parse,
  parseParts,
} from './parse.js';
export {
  countTokenFrequencies,
  explainSimilarity,
  NAME_MATCH_THRESHOLD,
  NAME_POSSIBLE_THRESHOLD,
  type SimilarityExplanation,
  type SimilarityOptions,
  similarity,
  type TokenFrequencies,
} from './similarity.js';
export {
  CANONICAL_SAME_SCORE,
  compareTokens,
  explainTokens,
  LEXICON_DIFFERENT_CEILING,
  LEXICON_SAME_SCORE,
  PreparedToken,
  type PrepareOptions,
  prepareToken,
  spellingSimilarity,
  TOKEN_MATCH_THRESHOLD,
  type TokenExplanation,
  tokenKey,
  tokenSimilarity,
} from './token.js';
