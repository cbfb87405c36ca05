// The one folding of a person's or company's name before it is compared (docs/compliance.md "Screening"):
// lower case, accents and other marks removed (Pérez = perez, Ñ = n), punctuation and symbols as spaces,
// words sorted, so "PÉREZ LÓPEZ, Juan" and "juan lopez perez" fold alike. Entries are folded once when a
// list is uploaded and the screened name on every screening; pg_trgm compares the folded forms.

/** The folded form of `name`: '' when nothing of it is a letter or a digit. */
export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((word) => word.length > 0)
    .sort()
    .join(' ');
}

/** An RFC or CURP as compared: upper case, without spaces, dots or dashes. */
export function foldId(id: string): string {
  return id
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9&]/g, '');
}
