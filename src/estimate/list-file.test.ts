import { describe, expect, it } from 'vitest';
import { joinLists, parseListFile, splitCsvLine } from './list-file.js';

describe('list files', () => {
  it('reads person_id[,stratum] with or without a header, BOM and CRLF, quotes, and counts repeated lines once', () => {
    const f = parseListFile(
      'a.csv',
      '\uFEFFperson_id,governorate\r\nP1,Homs\r\n"P,2","Damascus, Rural"\r\n\r\nP1,Homs\r\n',
    );
    expect(f.header).toBe(true);
    expect(f.bad).toEqual([]);
    expect(f.duplicates).toBe(1);
    expect(f.rows).toEqual([
      { id: 'P1', stratum: 'Homs', line: 2 },
      { id: 'P,2', stratum: 'Damascus, Rural', line: 3 },
    ]);
    expect(parseListFile('b.csv', 'P1\nP2\n').rows.map((r) => r.id)).toEqual(['P1', 'P2']);
  });

  it('names every bad line by its number and problem', () => {
    const f = parseListFile(
      'c.csv',
      'P1,Homs,extra\n,Homs\n"P3,Homs\nP4,"Ha"ma\nP5,Homs\nP5,Hama\nP6\uFFFD\n',
    );
    expect(f.bad).toEqual([
      { line: 1, problem: 'expected person_id[,stratum], found 3 fields' },
      { line: 2, problem: 'person_id is empty' },
      { line: 3, problem: 'a quoted field is not closed on its line' },
      { line: 4, problem: 'text after a closing quote' },
      { line: 6, problem: 'person P5 is in stratum "Hama" here but "Homs" on line 5' },
      { line: 7, problem: 'invalid UTF-8' },
    ]);
    expect(splitCsvLine('a,"b""c",')).toEqual(['a', 'b"c', '']);
  });

  it('joins lists into one history per person, and names people whose strata disagree or are missing', () => {
    const one = parseListFile('L1.csv', 'P1,Homs\nP2,Hama\n');
    const two = parseListFile('L2.csv', 'P1\nP3,Hama\n');
    const three = parseListFile('L3.csv', 'P1,Homs\nP2,Hama\n');
    const joined = joinLists([one, two, three]);
    expect(joined.problems).toEqual([]);
    expect(joined.histories).toEqual([
      { mask: 0b111, stratum: 'Homs' },
      { mask: 0b101, stratum: 'Hama' },
      { mask: 0b010, stratum: 'Hama' },
    ]);
    const clash = joinLists([one, parseListFile('L2.csv', 'P1,Idlib\nP9\n')]);
    expect(clash.problems).toEqual([
      'L2.csv line 1: person P1 is in stratum "Idlib", but in "Homs" at L1.csv line 1',
      'L2.csv line 2: person P9 has no stratum, but other people do: give every person one, or none',
    ]);
  });
});
