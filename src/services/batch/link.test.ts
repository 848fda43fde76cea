import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { featureColumns } from '../../linkage/features.js';
import { readRecords, runLink } from './link.js';
import { runSynth } from './synth.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-link-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};
const lines = (p: string) => fs.readFileSync(p, 'utf8').trim().split('\n');

describe('athar link (service)', () => {
  it('links records across files and writes one cluster line per record', async () => {
    const a = file(
      'a.csv',
      'record_id,first_name,father_name,family_name,birth_date\nA1,محمد,أحمد,المصري,1980-05-01\nA2,خالد,,العمر,1975\n',
    );
    const b = file('b.csv', 'record_id,full_name,birth_year\nB1,Mohammad Ahmad Al-Masri,1980\n');
    const out = path.join(dir, 'clusters.csv');
    const pairs = path.join(dir, 'pairs.csv');
    const summary = await runLink({ inputs: [a, b], out, pairs, workers: 1, pairsMinProbability: 0.01 });
    expect(lines(out)).toEqual(['record_id,cluster_id', 'A1,A1', 'A2,A2', 'B1,A1']);
    expect(summary).toMatchObject({ records: 3, clusters: 2, linkedRecords: 2, singletons: 1 });
    expect(lines(pairs)[0]).toBe('record_a,record_b,match_weight,probability,same_cluster');
    expect(
      lines(pairs)
        .slice(1)
        .some((l) => l.startsWith('A1,B1,') && l.endsWith(',1')),
    ).toBe(true);
  });

  it('keeps rows without any name as singletons and counts them, and counts unreadable dates per column', async () => {
    const input = file(
      'bad.csv',
      'record_id,full_name,mother_name,birth_date,arrest_date\n1,,فاطمة,31/02/1980,\n2,Ali Hasan,,someday,2013-02-30\n3,Ali Hasan,,,\n',
    );
    const out = path.join(dir, 'bad-clusters.csv');
    const summary = await runLink({ inputs: [input], out, workers: 1 });
    expect(summary.rowsWithoutName).toBe(1);
    expect(summary.invalidDates).toEqual({ birth_date: 2, birth_year: 0, arrest_date: 1, death_date: 0 });
    expect(lines(out)[1]).toBe('1,1');
  });

  it('stops on duplicate record ids, naming them', async () => {
    const input = file('dup.csv', 'record_id,full_name\nx,Ali Hasan\ny,Omar Ali\nx,Ali Hassan\n');
    await expect(runLink({ inputs: [input], out: path.join(dir, 'dup-out.csv') })).rejects.toThrow(
      /duplicate record_id: x \(.*dup\.csv line 4\)/,
    );
  });

  it('gives an empty result for an empty file', async () => {
    const out = path.join(dir, 'empty-out.csv');
    const summary = await runLink({ inputs: [file('empty.csv', '')], out });
    expect(summary).toMatchObject({ records: 0, clusters: 0, candidatePairs: 0 });
    expect(lines(out)).toEqual(['record_id,cluster_id']);
  });

  it('explains a pair and, with --train, retrains on the data and can save the model', async () => {
    const synth = await runSynth({ people: 400, out: path.join(dir, 'synth'), seed: 3 });
    const records = fs.readFileSync(synth.files.records, 'utf8').split('\n');
    const [idA, idB] = [records[1]!.split(',')[0]!, records[2]!.split(',')[0]!];
    const saved = path.join(dir, 'model.json');
    const summary = await runLink({
      inputs: [synth.files.records],
      out: path.join(dir, 'synth-clusters.csv'),
      train: true,
      saveModel: saved,
      explain: [idA, idB],
      workers: 2,
    });
    expect(summary.model).toMatchObject({ trained: true, saved });
    expect(JSON.parse(fs.readFileSync(saved, 'utf8')).version).toBe(summary.model.version);
    expect(summary.explanation).toMatchObject({ recordA: idA, recordB: idB });
    expect(lines(path.join(dir, 'synth-clusters.csv'))).toHaveLength(synth.records + 1);
  });

  it('reads a file in two halves on two threads into exactly what one thread reads', async () => {
    const synth = await runSynth({ people: 700, out: path.join(dir, 'halves'), seed: 4 });
    // Quoted fields with commas and a line break, so the split must respect quotes.
    const text = fs.readFileSync(synth.files.records, 'utf8').trimEnd().split('\n');
    text.splice(
      text.length >> 1,
      0,
      'q1,synthetic-x,"Hasan, Ali",,,,,,,,,,,,,,,,"two\nlines"',
      'q2,synthetic-x,Omar Ali',
    );
    const input = file('halves.csv', `${text.join('\n')}\n`);
    const noIds = file('halves-no-ids.csv', text.map((l) => l.slice(l.indexOf(',') + 1)).join('\n'));
    for (const f of [input, noIds]) {
      const one = await readRecords([f], undefined, { parallel: false });
      const two = await readRecords([f], undefined, { parallelMinBytes: 0 });
      expect(two.features.ids).toEqual(one.features.ids);
      expect(two.features.issues).toEqual(one.features.issues);
      expect(two.files[0]?.rows).toBe(one.files[0]?.rows);
      for (const column of featureColumns) {
        const show = (x: typeof one) =>
          Array.from(x.features[column].subarray(0, x.features.size), (v, i) =>
            column === 'source'
              ? x.features.sources.values[v]
              : ['first', 'father', 'grandfather', 'family', 'motherFirst', 'motherRest'].includes(column) &&
                  v >= 0
                ? // The form and its key: the key made in the other thread comes along with the form.
                  `${x.features.names.form(v)} ${x.features.names.keyText(x.features.names.keyOf(v))}`
                : column === 'place' && v >= 0
                  ? x.features.places.values[v]
                  : `${v}:${i}`,
          );
        expect(show(two)).toEqual(show(one));
      }
    }
    const dup = file('halves-dup.csv', `${text.join('\n')}\n${text[1]}\n`);
    await expect(readRecords([dup], undefined, { parallelMinBytes: 0 })).rejects.toThrow(
      /duplicate record_id: syn-0*1 \(.*line \d+\)/,
    );
  });
});
