/**
 * Marks an English source string as a translation key where it is not passed to t() directly (tables of labels).
 * The locale test finds keys by looking for calls of t and msg with a literal, so every label written this way
 * must have Arabic.
 */
export function msg<const S extends string>(text: S): S {
  return text;
}
