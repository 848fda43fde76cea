import { describe, expect, it } from 'vitest';
import {
  compareNames,
  digraphSplitReading,
  ghainReadings,
  habitReadings,
  nameKey,
  parseFullName,
  partForm,
  placeKey,
  prepareName,
  similarityReadings,
} from './name-kit.js';
import { NameSimilarity } from './similarity-cache.js';
import { NameVocabulary } from './vocabulary.js';

describe('name parts (the seam over src/names)', () => {
  it.each([
    ['المصري', 'مصري'],
    ['Al-Masri', 'masri'],
    ['El Masri', 'masri'],
    ['Almasri', 'masri'],
    // An assimilated article, or one a list assimilated wrongly (at before d), written apart: dropped too.
    ['en-Naouagh', 'naouagh'],
    ['Ech-Chammaa', 'chammaa'],
    ['At-Dattak', 'dattak'],
    ['Esch-Scharif', 'scharif'],
    // After an article written apart the name's own al stays: el-Aliti is العليتي, not a second article and تي.
    ['el-Aliti', 'aliti'],
    ['Al Alawi', 'alawi'],
    ['El-Alami', 'alami'],
    ['عبد الرحمن', 'عبدالرحمن'],
    ['أحمد', 'احمد'],
    ['', ''],
  ])('takes %j to the matching form %j', (text, form) => {
    expect(partForm(text)).toBe(form);
  });

  it('keys a name whose own letters begin with al, after an article, as its Arabic spelling', () => {
    expect(nameKey(partForm('El-Alami'))).toBe(nameKey(partForm('العلمي')));
    expect(nameKey(partForm('Al-Alawi'))).toBe(nameKey(partForm('العلوي')));
    expect(nameKey(partForm('el-Aliti'))).toBe(nameKey(partForm('العليتي')));
  });

  it('parses two, three and four-part names in both scripts into roles, compounds whole', () => {
    expect(parseFullName('Mohammad Al-Masri')).toEqual({ first: 'mohammad', family: 'masri' });
    expect(parseFullName('محمد عبد الرحمن المصري')).toEqual({
      first: 'محمد',
      father: 'عبدالرحمن',
      family: 'مصري',
    });
    const four = parseFullName('Abd al-Rahman Ahmad Ali Al-Halabi');
    expect(four).toMatchObject({ father: 'ahmad', grandfather: 'ali', family: 'halabi' });
    expect(compareNames(prepareName(four.first as string), prepareName('عبدالرحمن'))).toBeGreaterThan(0.9);
    expect(parseFullName('  ')).toEqual({});
  });

  it("reads the second of two Arabic parts as the father's name when it is a given name only", () => {
    expect(parseFullName('حسن محمد')).toEqual({ first: 'حسن', father: 'محمد' });
    expect(parseFullName('سامر الحلبي')).toEqual({ first: 'سامر', family: 'حلبي' });
    expect(parseFullName('Hassan Mohammad')).toEqual({ first: 'hassan', family: 'mohammad' });
  });

  it('gives Arabic names and their usual Latin spellings one key', () => {
    for (const [a, b] of [
      ['محمد', 'mohammad'],
      ['خالد', 'khaled'],
      ['شادي', 'chadi'],
      ['فاطمه', 'fatima'],
      ['عبدالله', 'abdullah'],
    ] as const) {
      expect(nameKey(partForm(a))).toBe(nameKey(partForm(b)));
    }
    expect(placeKey('جسر الشغور')).toBe(placeKey('Jisr al-Shughur'));
  });

  it("keys a place's construct state (ة spelt t) and assimilated article as Arabic writes them", () => {
    expect(placeKey('Maarat al-Numan')).toBe(placeKey('معرة النعمان'));
    expect(placeKey("Ma'arrat an-Nu'man")).toBe(placeKey('معرة النعمان'));
    expect(placeKey('Khirbet Ghazaleh')).toBe(placeKey('خربة غزالة'));
    expect(placeKey('Deir ez-Zor')).toBe(placeKey('دير الزور'));
    // A word's own t before another word is dropped on both sides alike.
    expect(placeKey('Beit Jinn')).toBe(placeKey('بيت جن'));
    expect(placeKey('Beit Jinn')).not.toBe(placeKey('Beit Sahem'));
  });

  it('scores names in [0,1]: 1 for the same form, high for one name across scripts, low for two names', () => {
    const p = (t: string) => prepareName(partForm(t));
    expect(compareNames(p('محمد'), p('محمد'))).toBe(1);
    expect(compareNames(p('محمد'), p('Mohammad'))).toBeGreaterThan(0.9);
    expect(compareNames(p('محمود'), p('Mohammad'))).toBeLessThan(0.68);
    expect(compareNames(p('سامر'), p('خالد'))).toBeLessThan(0.68);
    expect(compareNames(p(''), p(''))).toBe(0);
  });
});

describe('names as other habits of lists write them', () => {
  it('reads dh, th, kh and sh after the first letter as two letters for blocking keys', () => {
    expect(digraphSplitReading('sakhahe')).toBe('sakahahe');
    expect(digraphSplitReading('khadhan')).toBe('khadahan');
    expect(digraphSplitReading('khalid')).toBeUndefined();
    expect(nameKey(digraphSplitReading('adham') as string)).toBe(nameKey('ادهم'));
    expect(digraphSplitReading('haddad')).toBeUndefined();
    expect(digraphSplitReading('خدحان')).toBeUndefined();
  });

  it('reads Turkish c and v, and German dsch, sch, ch and j', () => {
    expect(habitReadings('casahe')).toEqual(['jasahe']);
    expect(habitReadings('huveyh')).toEqual(['huweyh']);
    expect(habitReadings('dschasaha')).toEqual(['jasaha']);
    expect(habitReadings('butajch')).toEqual(['butaykh']);
    // French dj stays ج; ch and ck are not Turkish c; Arabic script has no other reading.
    expect(habitReadings('djahir')).toEqual([]);
    expect(habitReadings('haddad')).toEqual([]);
    expect(habitReadings('بطيخ')).toEqual([]);
  });

  it('reads a Latin r as gh (French r for غ), each in turn and all at once', () => {
    expect(ghainReadings('ralir')).toEqual(['ghalir', 'raligh', 'ghaligh']);
    expect(nameKey(ghainReadings('ranabe')[0] as string)).toBe(nameKey('غنابه'));
    expect(ghainReadings('larrad')).toEqual(['laghrad', 'larghad', 'laghghad']);
    // No r, four of them, or Arabic script: none.
    expect(ghainReadings('haddad')).toEqual([]);
    expect(ghainReadings('rarrar')).toEqual([]);
    expect(ghainReadings('غنابه')).toEqual([]);
  });

  it('reads German and French s as ز for similarity, but not ss, sh, sch or ts', () => {
    expect(similarityReadings('hasim')).toEqual(['hazim']);
    expect(similarityReadings('alasma')).toEqual(['alazma']);
    expect(similarityReadings('abdulasis')).toEqual(['abdulaziz']);
    expect(similarityReadings('casahe')).toEqual(['jasahe', 'cazahe']);
    expect(similarityReadings('dschasaha')).toEqual(['jasaha', 'dschazaha']);
    expect(similarityReadings('hassan')).toEqual([]);
    expect(similarityReadings('shadi')).toEqual([]);
    expect(similarityReadings('watsa')).toEqual([]);
    expect(similarityReadings('سامر')).toEqual([]);
    // Blocking keys on the other habits only.
    expect(habitReadings('hasim')).toEqual([]);
  });

  it('lets a pair of names meet through either side read another way', () => {
    const names = new NameVocabulary();
    const sim = new NameSimilarity(names);
    const pairs = [
      ['butajch', 'بطيخ'],
      ['chufajm', 'khoufaym'],
      ['casahe', 'dschasaha'],
      ['hasim', 'حازم'],
      ['alasma', 'العظمة'],
    ] as const;
    for (const [a, b] of pairs) {
      const before = compareNames(prepareName(a), prepareName(b));
      const after = sim.get(names.intern(a), names.intern(b));
      expect(after).toBeGreaterThan(before);
      expect(after).toBeGreaterThanOrEqual(0.9);
    }
  });
});

describe('letters whose mark carries a sound', () => {
  it('are spelt out before folding, so a French ç and a Turkish ş meet their Arabic letters', () => {
    expect(partForm('Fayçal')).toBe('faysal');
    expect(nameKey(partForm('Fayçal'))).toBe(nameKey(partForm('فيصل')));
    expect(nameKey(partForm('Hişam'))).toBe(nameKey(partForm('هشام')));
    expect(nameKey(partForm('Hisam'))).not.toBe(nameKey(partForm('هشام')));
    // Before a, o or u a ç is an s; elsewhere it is the ch of Turkish and Kurdish spellings.
    expect(partForm('Çiya')).toBe('chiya');
  });
});
