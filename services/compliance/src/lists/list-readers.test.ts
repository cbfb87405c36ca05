import { describe, expect, it } from 'vitest';
import { ListFormatError, readCsvList, readOfacSdn } from './list-readers.js';

describe('readCsvList', () => {
  it('reads every column, folds the name and normalises RFC and CURP', () => {
    const entries = readCsvList(
      '\uFEFFname,rfc,curp,birthDate,country,reference\n' +
        '"Pérez López, Juan",pelj800101ab1,PELJ800101HDFRPN09,1980-01-01,MX,UIF-2026-001\n' +
        'Empresa Fantasma SA de CV,,,,,\n',
    );
    expect(entries).toEqual([
      {
        name: 'Pérez López, Juan',
        folded: 'juan lopez perez',
        rfc: 'PELJ800101AB1',
        curp: 'PELJ800101HDFRPN09',
        birthDate: '1980-01-01',
        country: 'MX',
        reference: 'UIF-2026-001',
      },
      {
        name: 'Empresa Fantasma SA de CV',
        folded: 'cv de empresa fantasma sa',
        rfc: '',
        curp: '',
        birthDate: '',
        country: '',
        reference: '',
      },
    ]);
  });

  it('accepts the columns in another order', () => {
    const [entry] = readCsvList('reference,name,rfc,curp,birthDate,country\nR1,Ana Ruiz,,,,\n');
    expect(entry?.name).toBe('Ana Ruiz');
    expect(entry?.reference).toBe('R1');
  });

  it('refuses a wrong header, naming what is missing', () => {
    expect(() => readCsvList('nombre,rfc\nAna,\n')).toThrow(/missing name,curp,birthDate,country,reference/);
  });

  it('names the line of an empty name, a bad RFC or CURP, or a bad date', () => {
    const head = 'name,rfc,curp,birthDate,country,reference\n';
    expect(() => readCsvList(`${head}Ana,,,,,\n ,,,,,\n`)).toThrow('line 3: name is empty');
    expect(() => readCsvList(`${head}Ana,XYZ,,,,\n`)).toThrow('line 2: rfc XYZ is not an RFC');
    expect(() => readCsvList(`${head}Ana,,ABC,,,\n`)).toThrow('line 2: curp ABC is not a CURP');
    expect(() => readCsvList(`${head}Ana,,,01/02/1980,,\n`)).toThrow('line 2: birthDate must be yyyy-MM-dd');
    expect(() => readCsvList(`${head}Ana,,,\n`)).toThrow(ListFormatError);
  });

  it('refuses an empty file', () => {
    expect(() => readCsvList('')).toThrow('header line is missing');
  });
});

describe('readOfacSdn', () => {
  const sdn =
    '36,"AEROCARIBBEAN AIRLINES",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Havana, Cuba."\n' +
    '17001,"ZAMBADA GARCIA, Ismael","individual","SDNTK",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,' +
    '"DOB 01 Jan 1948; POB Sinaloa, Mexico; R.F.C. ZAGI480101AB1 (Mexico); C.U.R.P. ZAGI480101HSLMRS09 (Mexico)."\n' +
    '\u001a\n';

  it('reads names, the RFC, CURP and birth date in Remarks, and a reference', () => {
    const entries = readOfacSdn(sdn);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      name: 'AEROCARIBBEAN AIRLINES',
      rfc: '',
      reference: 'OFAC SDN 36 CUBA',
    });
    expect(entries[1]).toEqual({
      name: 'ZAMBADA GARCIA, Ismael',
      folded: 'garcia ismael zambada',
      rfc: 'ZAGI480101AB1',
      curp: 'ZAGI480101HSLMRS09',
      birthDate: '1948-01-01',
      country: '',
      reference: 'OFAC SDN 17001 individual SDNTK',
    });
  });

  it('refuses a line that does not have sdn.csv columns', () => {
    expect(() => readOfacSdn('1,"A B"\n')).toThrow('line 1: 2 columns, sdn.csv has 12');
  });
});
