import { fieldLabel } from './fields.js';
import { msg } from './msg.js';

/** Why a search hit matched, as the API sends it: codes and parameters, said in the reader's language here. */
export type MatchReason =
  | { query: string; matched: true; part: string; text: string; score: number; reason: string }
  | { query: string; matched: false };

const reasonWords: Record<string, string> = {
  identical: msg('the same name'),
  'same-lexicon-entry': msg('two spellings of one name'),
  'different-lexicon-entries': msg('different names that look alike'),
  spelling: msg('a close spelling'),
  empty: msg('no letters to compare'),
};

/** A reason as a translation key and its values (the caller passes both to t). */
export function reasonSentence(r: MatchReason): { key: string; values: Record<string, string | number> } {
  if (!r.matched) return { key: msg('“{{query}}” matched no part of the name'), values: { query: r.query } };
  return {
    key: msg('“{{query}}” ≈ {{part}} “{{text}}”: {{reason}} ({{score}})'),
    values: {
      query: r.query,
      part: fieldLabel(r.part),
      text: r.text,
      reason: reasonWords[r.reason] ?? r.reason,
      score: r.score,
    },
  };
}
