/**
 * Card identifiers: the numbers written on or beside a photographed body. A body may carry up to three: the
 * branch's number, the detainee number that branch gave, and the forensic doctor's examination (report) number;
 * each is kept as read, with where it was read, and a search key that ignores how it was written.
 */

/** Arabic-Indic (U+0660…) and Eastern Arabic-Indic/Persian (U+06F0…) digits. */
const arabicIndicZero = 0x0660;
const easternArabicIndicZero = 0x06f0;

/**
 * The search key of a value as written: Unicode-compatible form (NFKC), Arabic-Indic and Persian digits as
 * ASCII, Latin letters in lower case, spaces, tatweel and direction marks dropped, and every dash, slash, dot or
 * underscore run as one "-". So "٢١٥ / ٣٤٥٦", "215/3456" and "215 - 3456" share the key "215-3456", while
 * letters such as "ج" stay (Air Force Intelligence bodies carry them).
 */
export function identifierKey(value: string): string {
  let out = '';
  for (const ch of value.normalize('NFKC')) {
    const code = ch.codePointAt(0)!;
    if (code >= arabicIndicZero && code <= arabicIndicZero + 9) out += String(code - arabicIndicZero);
    else if (code >= easternArabicIndicZero && code <= easternArabicIndicZero + 9)
      out += String(code - easternArabicIndicZero);
    else if (/[\s\u0640\u200c-\u200f\u061c\u202a-\u202e\u2066-\u2069]/u.test(ch)) continue;
    else if (/[-‐‑‒–—―−/\\._]/u.test(ch)) out += '-';
    else out += ch.toLowerCase();
  }
  return out.replace(/-+/g, '-').replace(/^-|-$/g, '');
}
