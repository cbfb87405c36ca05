import { parse } from 'csv-parse/sync';
import { foldId, foldName } from './fold.js';

// The two list formats an upload may have (docs/compliance.md "Lists"): the platform's CSV
// (`name,rfc,curp,birthDate,country,reference`, UTF-8, a header line, any column but name may be empty) and
// OFAC's SDN file (`sdn.csv`: no header; ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type,
// Tonnage, GRT, Vess_flag, Vess_owner, Remarks; "-0-" is an empty value). Both give the same entries.

export interface ListEntry {
  name: string;
  folded: string;
  rfc: string;
  curp: string;
  birthDate: string;
  country: string;
  reference: string;
}

export const LIST_FORMATS = ['csv', 'ofac-sdn'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/** A file that cannot be read, with the line at fault when there is one. */
export class ListFormatError extends Error {}

export const CSV_HEADER = ['name', 'rfc', 'curp', 'birthDate', 'country', 'reference'] as const;

const RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/;
const CURP = /^[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z0-9]\d$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function rows(body: string): string[][] {
  try {
    return parse(body.replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (err) {
    throw new ListFormatError(`not readable as CSV: ${(err as Error).message}`);
  }
}

/** Reads the platform's CSV; every line is checked and the first bad one named. */
export function readCsvList(body: string): ListEntry[] {
  const [header, ...lines] = rows(body);
  if (!header) throw new ListFormatError('empty file: the header line is missing');
  const columns = header.map((h) => h.trim());
  const missing = CSV_HEADER.filter((name) => !columns.includes(name));
  const unknown = columns.filter((name) => !(CSV_HEADER as readonly string[]).includes(name));
  if (missing.length || unknown.length)
    throw new ListFormatError(
      `header must be ${CSV_HEADER.join(',')}` +
        (missing.length ? `; missing ${missing.join(',')}` : '') +
        (unknown.length ? `; unknown ${unknown.join(',')}` : ''),
    );
  const at = (line: string[], name: (typeof CSV_HEADER)[number]) => line[columns.indexOf(name)]?.trim() ?? '';
  return lines.map((line, i) => {
    const lineNo = i + 2;
    if (line.length !== columns.length)
      throw new ListFormatError(`line ${lineNo}: ${line.length} columns, the header has ${columns.length}`);
    const name = at(line, 'name');
    const folded = foldName(name);
    if (!folded) throw new ListFormatError(`line ${lineNo}: name is empty`);
    const rfc = foldId(at(line, 'rfc'));
    if (rfc && !RFC.test(rfc)) throw new ListFormatError(`line ${lineNo}: rfc ${rfc} is not an RFC`);
    const curp = foldId(at(line, 'curp'));
    if (curp && !CURP.test(curp)) throw new ListFormatError(`line ${lineNo}: curp ${curp} is not a CURP`);
    const birthDate = at(line, 'birthDate');
    if (birthDate && !DATE.test(birthDate))
      throw new ListFormatError(`line ${lineNo}: birthDate must be yyyy-MM-dd`);
    return {
      name,
      folded,
      rfc,
      curp,
      birthDate,
      country: at(line, 'country'),
      reference: at(line, 'reference'),
    };
  });
}

const OFAC_NULL = '-0-';
const ofacValue = (value: string | undefined) => (value === undefined || value === OFAC_NULL ? '' : value);

/** Reads OFAC's sdn.csv; the RFC and CURP OFAC writes in Remarks ("R.F.C. ...", "C.U.R.P. ...") are kept. */
export function readOfacSdn(body: string): ListEntry[] {
  const lines = rows(body);
  if (lines.length === 0) throw new ListFormatError('empty file');
  return lines.flatMap((line, i) => {
    // OFAC ends the file with a line holding only a control character; it has no name.
    if (line.length === 1 && !foldName(line[0] ?? '')) return [];
    if (line.length < 12) throw new ListFormatError(`line ${i + 1}: ${line.length} columns, sdn.csv has 12`);
    const [entNum, sdnName, sdnType, program, , , , , , , , remarks] = line.map(ofacValue);
    const name = sdnName ?? '';
    const folded = foldName(name);
    if (!folded) throw new ListFormatError(`line ${i + 1}: SDN_Name is empty`);
    const rfc = foldId(/R\.F\.C\.\s*([A-Z0-9Ñ&-]+)/i.exec(remarks ?? '')?.[1] ?? '');
    const curp = foldId(/C\.U\.R\.P\.\s*([A-Z0-9]+)/i.exec(remarks ?? '')?.[1] ?? '');
    const birth = /DOB\s+(\d{2}) (\w{3}) (\d{4})/.exec(remarks ?? '');
    return [
      {
        name,
        folded,
        rfc: RFC.test(rfc) ? rfc : '',
        curp: CURP.test(curp) ? curp : '',
        birthDate: birth ? ofacDate(birth[1]!, birth[2]!, birth[3]!) : '',
        country: '',
        reference: ['OFAC SDN', entNum, sdnType, program].filter(Boolean).join(' '),
      },
    ];
  });
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
function ofacDate(day: string, month: string, year: string): string {
  const m = MONTHS.indexOf(month.toLowerCase());
  return m < 0 ? '' : `${year}-${String(m + 1).padStart(2, '0')}-${day}`;
}

/** Reads `body` in `format`. */
export function readList(format: ListFormat, body: string): ListEntry[] {
  switch (format) {
    case 'csv':
      return readCsvList(body);
    case 'ofac-sdn':
      return readOfacSdn(body);
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}
