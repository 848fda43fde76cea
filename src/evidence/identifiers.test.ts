import { describe, expect, it } from 'vitest';
import { isAnnotationKind, isReadFrom } from '../domain/evidence.js';
import { identifierKey } from './identifiers.js';

describe('card identifier keys', () => {
  it.each([
    ['3456', '3456'],
    ['٣٤٥٦', '3456'],
    ['۳۴۵۶', '3456'],
    [' 3456 ', '3456'],
    ['215/3456', '215-3456'],
    ['٢١٥ / ٣٤٥٦', '215-3456'],
    ['215 - 3456', '215-3456'],
    ['215–3456', '215-3456'],
    ['2015/07/123', '2015-07-123'],
    ['ج 12', 'ج12'],
    ['ج١٢', 'ج12'],
    ['No. 12', 'no-12'],
    ['１２３', '123'],
    ['\u200f١٢٣\u200f', '123'],
    ['12ـ3', '123'],
    ['/12/', '12'],
  ])('%s has the key %s', (value, key) => {
    expect(identifierKey(value)).toBe(key);
  });

  it('gives no key to a value without letters or digits', () => {
    expect(identifierKey(' - / ')).toBe('');
  });

  it('knows the annotation kinds and places', () => {
    expect(isAnnotationKind('detainee_number')).toBe(true);
    expect(isAnnotationKind('forensic_report_number')).toBe(true);
    expect(isAnnotationKind('branch')).toBe(false);
    expect(isReadFrom('overlay')).toBe(true);
    expect(isReadFrom('wall')).toBe(false);
  });
});
