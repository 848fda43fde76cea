/** A size in bytes as a reader says it (B, KiB, MiB, GiB), in the reader's digits. */
export function bytesText(n: number | null, language: string): string {
  if (n === null) return '';
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  if (n < 1024) return `${number.format(n)} B`;
  if (n < 1024 ** 2) return `${number.format(n / 1024)} KiB`;
  if (n < 1024 ** 3) return `${number.format(n / 1024 ** 2)} MiB`;
  return `${number.format(n / 1024 ** 3)} GiB`;
}
