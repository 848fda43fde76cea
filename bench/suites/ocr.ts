/**
 * OCR (docs/ocr.md), on SYNTHETIC sets with known truth (test/ocr/synthetic.ts): card photos, printed and hard —
 * exact whole-number accuracy, by digit script and by fonts the templates saw or not; how well confidence sorts the
 * errors first; photos with no card; tesseract alone on the same cards (the reason for the glyph classifier);
 * throughput on all cores; and scanned registry pages through tesseract (ara): time per page and the names'
 * character error rate, typed and handwritten-looking; and the same pages through the row pipeline the service
 * uses (`rows`: engine, rows rebuilt, cells read again with the glyph classifier) — rows found, names, numbers,
 * dates in Latin and Arabic-Indic digits, worn photocopies, the names' CER for names the lexicon lists and for
 * names it does not, seconds a page. `--quick`: smaller sets. `BENCH_OCR=cards,tesseract,throughput,pages,rows`
 * (comma-separated) runs only those parts; `BENCH_OCR_ROWS_SEED=<offset>` moves the rows part's seeds (develop on
 * other seeds than the ones reported).
 */
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { identifierKey } from '../../src/evidence/identifiers.js';
import { readCard } from '../../src/ocr/cards.js';
import { glyphTemplates } from '../../src/ocr/glyph-templates.js';
import { decodeTemplates } from '../../src/ocr/glyphs.js';
import { linesOf } from '../../src/ocr/tsv.js';
import { readRegistryPage } from '../../src/services/ocr/scanned-pages.js';
import { TesseractEngine } from '../../src/services/ocr/tesseract.js';
import {
  type CardSample,
  cardSet,
  heldOutFonts,
  type PageSample,
  pageSample,
} from '../../test/ocr/synthetic.js';
import { type BenchRow, percentile, quick, report } from '../harness.js';

const suite = 'ocr';
const rows: BenchRow[] = [];
const log = (text: string) => process.stderr.write(`${text}\n`);
const templates = decodeTemplates(glyphTemplates);
const cards = quick ? 60 : 300;
const noCards = quick ? 10 : 30;
const parts = new Set((process.env.BENCH_OCR ?? 'cards,tesseract,throughput,pages,rows').split(','));

const gray = async (image: Buffer) => {
  const { data, info } = await sharp(image).rotate().greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
};

interface Judged {
  sample: CardSample;
  found: boolean;
  fields: { correct: boolean; confidence: number }[];
}

async function judgeSet(set: CardSample[]): Promise<Judged[]> {
  const out: Judged[] = [];
  for (const sample of set) {
    const r = readCard(await gray(sample.image), templates);
    if (!sample.truth) {
      out.push({ sample, found: r.found, fields: [] });
      continue;
    }
    const want = [sample.truth.branch, sample.truth.detaineeNumber, sample.truth.examinationNumber];
    out.push({
      sample,
      found: r.found,
      fields: r.found
        ? r.fields.map((f, i) => ({
            correct: identifierKey(f.value) === identifierKey(want[i]!),
            confidence: f.confidence,
          }))
        : [],
    });
  }
  return out;
}

function accuracy(judged: Judged[]): { accuracy: number; numbers: number; proposed: number; wrong: number } {
  const withCard = judged.filter((j) => j.sample.truth);
  const numbers = withCard.length * 3;
  const fields = withCard.flatMap((j) => j.fields);
  const correct = fields.filter((f) => f.correct).length;
  return { accuracy: correct / numbers, numbers, proposed: fields.length, wrong: fields.length - correct };
}

/** Of the wrong proposals, the share found among the 10% least confident proposals. */
function errorsFirst(judged: Judged[]): { share: number; wrong: number; lowest: number } {
  const fields = judged.flatMap((j) => j.fields).sort((a, b) => a.confidence - b.confidence);
  const wrong = fields.filter((f) => !f.correct).length;
  const lowest = Math.ceil(fields.length * 0.1);
  const caught = fields.slice(0, lowest).filter((f) => !f.correct).length;
  return { share: wrong === 0 ? 1 : caught / wrong, wrong, lowest };
}

for (const hard of parts.has('cards') ? [false, true] : []) {
  const name = hard ? 'hard' : 'printed';
  const set = await cardSet({ hard, count: cards, seed: hard ? 50_000 : 10_000, noCard: noCards });
  const judged = await judgeSet(set);
  const all = accuracy(judged);
  const by = (f: (j: Judged) => boolean) => accuracy(judged.filter((j) => !j.sample.truth || f(j)));
  const latin = by((j) => j.sample.digits === 'latin');
  const arabic = by((j) => j.sample.digits === 'arabic');
  const seen = by((j) => !heldOutFonts.has(j.sample.font));
  const unseen = by((j) => heldOutFonts.has(j.sample.font));
  const labelled = by((j) => j.sample.labels);
  const sorting = errorsFirst(judged);
  const falseCards = judged.filter((j) => !j.sample.truth && j.found).length;
  const missed = judged.filter((j) => j.sample.truth && !j.found).length;
  log(
    `${name}: accuracy ${all.accuracy.toFixed(3)} (latin ${latin.accuracy.toFixed(3)}, arabic-indic ${arabic.accuracy.toFixed(3)}, template fonts ${seen.accuracy.toFixed(3)}, held-out fonts ${unseen.accuracy.toFixed(3)}, labelled ${labelled.accuracy.toFixed(3)}); ${all.wrong} wrong of ${all.proposed} proposed; ${missed} cards without proposal; errors among the 10% least confident ${sorting.share.toFixed(2)}; proposals on photos without a card ${falseCards}/${noCards}`,
  );
  rows.push({
    suite,
    name: `cards ${name}: exact whole-number accuracy`,
    size: `${cards} photos + ${noCards} without a card`,
    ratio: { against: 'all numbers', value: all.accuracy, goal: hard ? '≥ 0.80' : '≥ 0.95' },
    extra: {
      latin: round(latin.accuracy),
      arabicIndic: round(arabic.accuracy),
      templateFonts: round(seen.accuracy),
      heldOutFonts: round(unseen.accuracy),
      labelled: round(labelled.accuracy),
      proposed: all.proposed,
      wrong: all.wrong,
      precision: round(all.proposed ? 1 - all.wrong / all.proposed : 1),
      cardsWithoutProposal: missed,
      errorsAmongLeastConfident10pc: round(sorting.share),
      proposalsWithoutCard: falseCards,
    },
  });
}

// Tesseract alone on the same cards: the card found and turned upright by athar, its text read by tesseract
// (ara+eng, one block, digits and the two letters only), the numbers taken line by line.
const probe = TesseractEngine.open({ concurrency: os.availableParallelism() });
if (probe.engine && parts.has('tesseract')) {
  const engine = probe.engine;
  for (const digits of ['latin', 'arabic'] as const) {
    const set = (await cardSet({ hard: false, count: quick ? 40 : 120, seed: 70_000 })).filter(
      (s) => s.digits === digits,
    );
    let correct = 0;
    let total = 0;
    await Promise.all(
      set.map(async (s) => {
        const r = readCard(await gray(s.image), templates);
        total += 3;
        if (!r.card) return;
        const crop = await sharp(s.image)
          .extract({ left: r.card.x, top: r.card.y, width: r.card.width, height: r.card.height })
          .png()
          .toBuffer();
        const read = await engine.recognize({
          image: crop,
          languages: ['ara', 'eng'],
          segmentation: 'block',
          characters: '0123456789٠١٢٣٤٥٦٧٨٩/بج',
        });
        const numbers = linesOf(read.words)
          .map(
            (l) =>
              l
                .map((w) => w.text)
                .join(' ')
                .match(/[0-9٠-٩]+(?:\/[بج])?|[بج]\/[0-9٠-٩]+/)?.[0],
          )
          .filter((n): n is string => Boolean(n));
        const want = [s.truth!.branch, s.truth!.detaineeNumber, s.truth!.examinationNumber];
        numbers.slice(0, 3).forEach((n, i) => {
          const key = identifierKey(
            n.includes('/') && !/^[0-9٠-٩]/.test(n) ? n.split('/').reverse().join('/') : n,
          );
          if (key === identifierKey(want[i]!)) correct++;
        });
      }),
    );
    log(
      `tesseract alone, ${digits} digits: ${correct}/${total} numbers exact (${(correct / total).toFixed(3)})`,
    );
    rows.push({
      suite,
      name: `cards printed, tesseract alone: ${digits === 'latin' ? 'Latin' : 'Arabic-Indic'} digits`,
      size: `${total / 3} photos`,
      ratio: { against: 'all numbers', value: correct / total },
    });
  }
}

// Throughput: decode and read, one worker per core (as the server's pool would).
if (parts.has('throughput')) {
  const set = await cardSet({ hard: true, count: quick ? 40 : 120, seed: 90_000 });
  const cores = os.availableParallelism();
  const started = performance.now();
  let busiest = 0;
  const shares = Array.from({ length: cores }, (_, k) =>
    set.filter((_, i) => i % cores === k).map((s) => new Uint8Array(s.image)),
  );
  await Promise.all(
    shares.map(
      (images) =>
        new Promise<void>((resolve, reject) => {
          const w = new Worker(path.join(import.meta.dirname, '..', 'ocr-worker.mjs'), {
            workerData: { images },
          });
          w.once('message', (m: { ms: number }) => {
            busiest = Math.max(busiest, m.ms);
            resolve();
          });
          w.once('error', reject);
        }),
    ),
  );
  // The workers' own time (their first photo to their last): starting a worker (tsx compiling the reader, the
  // templates decoded) happens once per server, not per photo. The machine's load is recorded beside it.
  const seconds = busiest / 1000;
  const wall = (performance.now() - started) / 1000;
  const load = os.loadavg()[0]!;
  log(
    `throughput: ${(set.length / seconds).toFixed(1)} card photos/s on ${cores} cores (1024×768 JPEG, decode included; ${(set.length / wall).toFixed(1)}/s counting the workers' start; load average ${load.toFixed(1)})`,
  );
  rows.push({
    suite,
    name: 'cards: photos read per second (decode + read)',
    size: `${set.length} photos, ${cores} cores`,
    throughput: { value: set.length / seconds, unit: 'photos/s' },
    ratio: { against: 'goal 4/s', value: set.length / seconds / 4, goal: '≥ 1' },
    extra: {
      withWorkerStart: Math.round((set.length / wall) * 10) / 10,
      loadAverage: Math.round(load * 10) / 10,
    },
  });
}

// Registry pages through tesseract.
const normal = (s: string) =>
  s
    .normalize('NFC')
    .replace(/[\u0640\u064b-\u0652]/g, '')
    .replace(/[0-9٠-٩|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length]!;
}

if (probe.engine && parts.has('pages')) {
  const engine = probe.engine;
  for (const handwritten of [false, true]) {
    const pages = quick ? 2 : 6;
    let errors = 0;
    let chars = 0;
    const times: number[] = [];
    for (let p = 0; p < pages; p++) {
      const page = await pageSample(200 + p, { handwritten });
      const t0 = performance.now();
      const read = await engine.recognize({ image: page.image, languages: ['ara'], segmentation: 'auto' });
      times.push(performance.now() - t0);
      const lines = linesOf(read.words).map((l) => normal(l.map((w) => w.text).join(' ')));
      for (const row of page.rows) {
        const want = normal(row.name);
        let best = want.length;
        for (const l of lines) best = Math.min(best, levenshtein(want, l));
        errors += best;
        chars += [...want].length;
      }
    }
    const cer = errors / chars;
    const kind = handwritten ? 'handwritten-looking' : 'typed';
    log(
      `registry pages, ${kind}: names CER ${(cer * 100).toFixed(1)}%, ${percentile(times, 50).toFixed(0)} ms a page (p50)`,
    );
    rows.push({
      suite,
      name: `registry pages ${kind}: names' character error rate`,
      size: `${pages} pages 1240×1754`,
      p50Ms: percentile(times, 50),
      p95Ms: percentile(times, 95),
      ratio: {
        against: 'characters',
        value: cer,
        goal: handwritten ? 'reported as is' : '≤ 0.05; page ≤ 5 s',
      },
    });
  }
} else if (!probe.engine) log(`registry pages: skipped (${probe.reason})`);

// Registry pages through the row pipeline, as the service reads them (readRegistryPage). A proposed row is the
// truth row whose middle is nearest its box's middle (within half a row); a truth row no proposal matches counts
// whole in the names' character error rate.
if (probe.engine && parts.has('rows')) {
  const engine = probe.engine;
  const offset = Number(process.env.BENCH_OCR_ROWS_SEED ?? 0);
  const pages = quick ? 2 : 5;
  const sets: { kind: string; seed: number; options: Parameters<typeof pageSample>[1] }[] = [
    { kind: 'typed', seed: 300, options: { handwritten: false } },
    { kind: 'handwritten-looking', seed: 300, options: { handwritten: true } },
    { kind: 'typed, Latin dates', seed: 310, options: { handwritten: false, dates: 'latin' } },
    { kind: 'typed, Arabic-Indic dates', seed: 320, options: { handwritten: false, dates: 'indic' } },
    { kind: 'typed, worn photocopy', seed: 340, options: { handwritten: false, worn: true } },
  ];
  // The three clean typed sets together (the goal's figure; worn copies are reported beside it), by whether the
  // names are listed in the lexicon.
  const typed = { errors: 0, chars: 0, listed: { errors: 0, chars: 0 }, unlisted: { errors: 0, chars: 0 } };
  for (const set of sets) {
    const rowH = 56;
    let truthRows = 0;
    let found = 0;
    let extra = 0;
    let exactNames = 0;
    let errors = 0;
    let chars = 0;
    const byList = { listed: { errors: 0, chars: 0 }, unlisted: { errors: 0, chars: 0 } };
    let numbers = 0;
    let datesRight = 0;
    let datesProposed = 0;
    let confidentWrong = 0;
    const times: number[] = [];
    for (let p = 0; p < pages; p++) {
      const page: PageSample = await pageSample(offset + set.seed + p, set.options);
      const t0 = performance.now();
      const { parsed } = await readRegistryPage(engine, page.image);
      times.push(performance.now() - t0);
      const used = new Set<number>();
      const matchOf = new Map<number, (typeof parsed.rows)[number]>();
      for (const row of parsed.rows) {
        const y = row.box.y + row.box.height / 2;
        let best = -1;
        let bestD = rowH / 2;
        page.rows.forEach((t, i) => {
          const d = Math.abs(t.nameBox.y + rowH / 2 - y);
          if (!used.has(i) && d < bestD) {
            bestD = d;
            best = i;
          }
        });
        if (best < 0) extra++;
        else {
          used.add(best);
          matchOf.set(best, row);
        }
      }
      page.rows.forEach((t, i) => {
        truthRows++;
        const want = normal(t.name);
        const row = matchOf.get(i);
        const got = row ? normal(row.fields.fullName ?? '') : '';
        const wrong = row ? Math.min([...want].length, levenshtein(want, got)) : [...want].length;
        errors += wrong;
        chars += [...want].length;
        const list = byList[t.listed ? 'listed' : 'unlisted'];
        list.errors += wrong;
        list.chars += [...want].length;
        if (!row) return;
        found++;
        if (got === want) exactNames++;
        if (row.fields.detaineeNumber === t.number) numbers++;
        else if (row.fields.detaineeNumber && (row.fieldConfidence.detaineeNumber ?? 0) >= 0.8)
          confidentWrong++;
        if (t.date && row.fields.date) {
          datesProposed++;
          if (row.fields.date === t.date) datesRight++;
          else if ((row.fieldConfidence.date ?? 0) >= 0.8) confidentWrong++;
        }
      });
    }
    const cer = errors / chars;
    const pc = (n: { errors: number; chars: number }) => `${((n.errors / n.chars) * 100).toFixed(1)}%`;
    if (!set.options.handwritten && !set.options.worn) {
      typed.errors += errors;
      typed.chars += chars;
      for (const k of ['listed', 'unlisted'] as const) {
        typed[k].errors += byList[k].errors;
        typed[k].chars += byList[k].chars;
      }
    }
    const dated = set.options.dates !== undefined;
    log(
      `rows ${set.kind} (seeds ${offset + set.seed}–${offset + set.seed + pages - 1}): ${found}/${truthRows} rows found (+${extra} stray), names exact ${exactNames}, CER ${(cer * 100).toFixed(1)}% (listed names ${pc(byList.listed)}, unlisted ${pc(byList.unlisted)}), detainee numbers exact ${numbers}${dated ? `, dates right ${datesRight} (of ${datesProposed} proposed)` : ''}, wrong values at confidence ≥ 0.8: ${confidentWrong}; ${(percentile(times, 50) / 1000).toFixed(1)} s a page p50, ${(percentile(times, 95) / 1000).toFixed(1)} s p95 (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    rows.push({
      suite,
      name: `registry rows ${set.kind}: names' character error rate (missed rows whole)`,
      size: `${pages} pages, ${truthRows} rows`,
      p50Ms: percentile(times, 50),
      p95Ms: percentile(times, 95),
      ratio: {
        against: 'characters',
        value: cer,
        goal:
          set.options.handwritten || set.options.worn ? 'reported as is; page ≤ 5 s' : '≤ 0.05; page ≤ 5 s',
      },
      extra: {
        rowsFound: found,
        strayRows: extra,
        namesExact: exactNames,
        cerListed: round(byList.listed.errors / byList.listed.chars),
        cerUnlisted: round(byList.unlisted.errors / byList.unlisted.chars),
        detaineeNumbersExact: numbers,
        ...(dated ? { datesRight, datesProposed } : {}),
        wrongAtConfidence08: confidentWrong,
        loadAverage: Math.round(os.loadavg()[0]! * 10) / 10,
      },
    });
  }
  const all = (n: { errors: number; chars: number }) => n.errors / n.chars;
  log(
    `rows typed, the three typed sets: CER ${(all(typed) * 100).toFixed(1)}% (listed names ${(all(typed.listed) * 100).toFixed(1)}%, unlisted ${(all(typed.unlisted) * 100).toFixed(1)}%)`,
  );
  rows.push({
    suite,
    name: "registry rows, typed (three sets): names' character error rate",
    size: `3 sets of ${pages} pages`,
    ratio: { against: 'characters', value: all(typed), goal: '≤ 0.05' },
    extra: { cerListed: round(all(typed.listed)), cerUnlisted: round(all(typed.unlisted)) },
  });
}
await probe.engine?.close();

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

report(rows);
