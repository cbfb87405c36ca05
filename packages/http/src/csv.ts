// The one CSV writer (CONTRACT.md section 18: exports safe to open in a spreadsheet), used by every export
// the gateway streams: the audit log, the merchants' statements.

/**
 * One CSV cell, safe to open in a spreadsheet: a value that starts with = + - @, a tab or a carriage
 * return gets a leading apostrophe so it is never read as a formula (OWASP "CSV injection"); a value of
 * type number is written as it is.
 */
export function csvCell(value: unknown): string {
  // A number is never a formula: -12.5 stays a number a spreadsheet can add up.
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  let text =
    value === null || value === undefined
      ? ''
      : Array.isArray(value)
        ? value.join(' ')
        : value instanceof Date
          ? value.toISOString()
          : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line of cells (RFC 4180: comma-separated, CRLF-terminated), each through csvCell. */
export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
