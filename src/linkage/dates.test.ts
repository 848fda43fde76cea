import { describe, expect, it } from 'vitest';
import { epochDay, formatDate, monthOfEpochDay, parseDate, parseYear } from './dates.js';

describe('parseDate', () => {
  it.each([
    ['1985-03-07', { year: 1985, month: 3, day: 7 }],
    ['1985-3-7', { year: 1985, month: 3, day: 7 }],
    ['07/03/1985', { year: 1985, month: 3, day: 7 }],
    ['7.3.1985', { year: 1985, month: 3, day: 7 }],
    ['1985-03', { year: 1985, month: 3, day: 0 }],
    ['1985', { year: 1985, month: 0, day: 0 }],
    ['٠٧/٠٣/١٩٨٥', { year: 1985, month: 3, day: 7 }],
    [' 2000-02-29 ', { year: 2000, month: 2, day: 29 }],
    // Day-first has no month 20: read month-first, the only reading it has.
    ['07/20/1973', { year: 1973, month: 7, day: 20 }],
    ['4.25.1990', { year: 1990, month: 4, day: 25 }],
    ['1985/03/07', { year: 1985, month: 3, day: 7 }],
    ['03/1985', { year: 1985, month: 3, day: 0 }],
    // A month by name, as dates are written from memory.
    ['حزيران 2013', { year: 2013, month: 6, day: 0 }],
    ['١٥ تشرين الأول ٢٠١٢', { year: 2012, month: 10, day: 15 }],
    ['كانون الثاني 2014', { year: 2014, month: 1, day: 0 }],
    ['آذار ٢٠١١', { year: 2011, month: 3, day: 0 }],
    ['حزيران (يونيو) 2013', { year: 2013, month: 6, day: 0 }],
    ['يوليو 2012', { year: 2012, month: 7, day: 0 }],
    ['June 24, 2018', { year: 2018, month: 6, day: 24 }],
    ['24 Sept 2018', { year: 2018, month: 9, day: 24 }],
    ['1er février 2016', { year: 2016, month: 2, day: 1 }],
    ['15. März 2014', { year: 2014, month: 3, day: 15 }],
    ['3 Ağustos 2015', { year: 2015, month: 8, day: 3 }],
    ['Mayıs 2013', { year: 2013, month: 5, day: 0 }],
    // A year given as approximate is the year (the comparison allows one off).
    ['حوالي 1985', { year: 1985, month: 0, day: 0 }],
    ['1985 تقريبا', { year: 1985, month: 0, day: 0 }],
    ['c. 1985', { year: 1985, month: 0, day: 0 }],
    ['~1985', { year: 1985, month: 0, day: 0 }],
    ['1985?', { year: 1985, month: 0, day: 0 }],
    // A part of the year, as families remember it, is the year (or the month, when one is named).
    ['أواخر عام 2012', { year: 2012, month: 0, day: 0 }],
    ['صيف 2013', { year: 2013, month: 0, day: 0 }],
    ['mid-2013', { year: 2013, month: 0, day: 0 }],
    ['end of 2013', { year: 2013, month: 0, day: 0 }],
    ['fin 2013', { year: 2013, month: 0, day: 0 }],
    ['Anfang 2014', { year: 2014, month: 0, day: 0 }],
    ['2013 sonu', { year: 2013, month: 0, day: 0 }],
    ['early May 2013', { year: 2013, month: 5, day: 0 }],
    ['Ende März 2014', { year: 2014, month: 3, day: 0 }],
  ])('reads %s', (text, date) => {
    expect(parseDate(text)).toEqual({ kind: 'date', date });
  });

  it.each([
    '1985-13-01',
    '1900-02-29',
    '31/04/1990',
    '13/13/1990',
    '31/20/1990',
    'yesterday',
    '85',
    '1985/03/07x',
    '0000',
    'late',
    'حزيران تموز 2013',
    '31 June 2013',
    'June 2013 2014',
    '2013-2014',
  ])('calls %s invalid', (text) => {
    expect(parseDate(text).kind).toBe('invalid');
  });

  it.each([undefined, null, '', '   '])('calls %j empty', (text) => {
    expect(parseDate(text).kind).toBe('empty');
  });
});

describe('parseYear', () => {
  it('reads a four-digit year and refuses anything else', () => {
    expect(parseYear('1990')).toEqual({ kind: 'date', date: { year: 1990, month: 0, day: 0 } });
    expect(parseYear('1990-01-01').kind).toBe('invalid');
    expect(parseYear('حوالي ١٩٩٠')).toEqual({ kind: 'date', date: { year: 1990, month: 0, day: 0 } });
    expect(parseYear('about').kind).toBe('invalid');
    expect(parseYear('').kind).toBe('empty');
  });
});

describe('formatting', () => {
  it('writes ISO at the precision given and counts days from the epoch', () => {
    expect(formatDate({ year: 2012, month: 5, day: 0 })).toBe('2012-05');
    expect(formatDate({ year: 2012, month: 5, day: 9 })).toBe('2012-05-09');
    expect(epochDay({ year: 1970, month: 1, day: 2 })).toBe(1);
    expect(epochDay({ year: 1970, month: 0, day: 0 })).toBe(0);
  });
});

describe('monthOfEpochDay', () => {
  it('agrees with the calendar on every day from 1850 to 2100', () => {
    const from = epochDay({ year: 1850, month: 1, day: 1 });
    const to = epochDay({ year: 2100, month: 12, day: 31 });
    const wrong: number[] = [];
    for (let d = from; d <= to; d++) {
      const date = new Date(d * 86_400_000);
      if (monthOfEpochDay(d) !== date.getUTCFullYear() * 12 + date.getUTCMonth()) wrong.push(d);
    }
    expect(wrong).toEqual([]);
  });
});
