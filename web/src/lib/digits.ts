/** Arabic-Indic (٠…٩) and Eastern Arabic-Indic (۰…۹) digits as ASCII, so "٢٠١٣" reaches the API as "2013". */
export function asciiDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) & 0xf));
}
