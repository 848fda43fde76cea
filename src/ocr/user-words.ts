/**
 * The words of athar's names lexicon (src/names) as a list for the OCR engine to favour (tesseract's
 * `--user-words`): every Arabic form of every entry, word by word, and family names with the article as registers
 * write them (حلبي → الحلبي). Pure; the engine adapter's caller writes it to a file.
 *
 * It favours names the lexicon lists; the bench measures listed and unlisted names apart (docs/ocr.md).
 */
import { lexiconEntries } from '../names/lexicon.js';

const arabicWord = /^[\u0621-\u064a\u0671-\u06d3]+$/u;

export function lexiconUserWords(): string[] {
  const out = new Set<string>();
  for (const entry of lexiconEntries()) {
    for (const form of entry.arabicForms) {
      for (const word of form.normalize('NFC').split(/\s+/)) {
        if (!arabicWord.test(word)) continue;
        out.add(word);
        if (entry.family && !word.startsWith('ال')) out.add(`ال${word}`);
      }
    }
  }
  return [...out].sort();
}
