import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLink } from './link.js';
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
});
