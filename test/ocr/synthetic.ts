/**
 * SYNTHETIC OCR test sets with known truth (docs/ocr.md, "Test sets"): body-photo cards and registry pages drawn
 * as SVG and rasterised by sharp. Nothing here is real: numbers and names are drawn at random from a seed.
 */
import sharp from 'sharp';
import { isListed } from '../../src/names/lexicon.js';

/** A small seeded generator (mulberry32): the same seed gives the same set. */
export class Rand {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  between(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }
}

export const toArabicIndic = (s: string) =>
  s.replace(/[0-9]/g, (d) => String.fromCharCode(0x660 + Number(d)));

/** The test sets' fonts; the glyph templates (scripts/ocr-glyphs.ts) were made from all but the held-out one. */
export const latinFonts = ['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'Noto Sans'] as const;
export const arabicFonts = [
  'DejaVu Sans',
  'Noto Naskh Arabic',
  'Noto Sans Arabic',
  'Noto Kufi Arabic',
] as const;
export const heldOutFonts: ReadonlySet<string> = new Set([
  'DejaVu Sans Mono',
  'Noto Sans',
  'Noto Kufi Arabic',
]);

export interface CardTruth {
  branch: string;
  detaineeNumber: string;
  /** With its letter when the card has one: "1234/ب". */
  examinationNumber: string;
}

export interface CardSample {
  name: string;
  /** JPEG bytes of the whole photo. */
  image: Buffer;
  /** null: the photo has no card (the reader must propose nothing). */
  truth: CardTruth | null;
  digits: 'latin' | 'arabic';
  font: string;
  labels: boolean;
  hard: boolean;
}

const branches = ['215', '227', '235', '248', '251', '290', '291', '293', '294'];
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * One body photo: a dark, cluttered scene with a pale card carrying the three numbers top to bottom. "hard" adds
 * rotation up to ±12°, blur, low light, JPEG noise and a dark shape over one corner of the card.
 */
export async function cardSample(
  seed: number,
  options: { hard: boolean; noCard?: boolean },
): Promise<CardSample> {
  const r = new Rand(seed);
  const hard = options.hard;
  r.next();
  const digits = r.chance(0.5) ? 'arabic' : 'latin';
  const font = digits === 'arabic' ? r.pick(arabicFonts) : r.pick(latinFonts);
  const labels = r.chance(0.4);
  const letter = r.chance(0.3) ? r.pick(['ب', 'ج']) : '';
  const truth: CardTruth = {
    branch: r.pick(branches),
    detaineeNumber: String(r.int(1, 99999)),
    examinationNumber: `${r.int(100, 9999)}${letter ? `/${letter}` : ''}`,
  };
  const show = (s: string) => (digits === 'arabic' ? toArabicIndic(s) : s);
  const W = 1024;
  const H = 768;
  // The scene: a gradient and blotches in body and sheet tones, darker than the card.
  let scene = `<rect width="${W}" height="${H}" fill="rgb(${r.int(40, 90)},${r.int(35, 70)},${r.int(30, 60)})"/>`;
  for (let i = 0; i < 14; i++) {
    const g = r.int(60, 150);
    scene += `<ellipse cx="${r.int(0, W)}" cy="${r.int(0, H)}" rx="${r.int(40, 260)}" ry="${r.int(30, 160)}" fill="rgb(${g + 20},${g},${g - 20})" opacity="${r.between(0.4, 0.9).toFixed(2)}"/>`;
  }
  const cw = r.int(380, 460);
  const ch = Math.round(cw * r.between(0.62, 0.72));
  const size = Math.round(ch * r.between(0.17, 0.2));
  const angle = hard ? r.between(-12, 12) : r.between(-2, 2);
  const cx = r.int(cw / 2 + 40, W - cw / 2 - 40);
  const cy = r.int(ch / 2 + 40, H - ch / 2 - 40);
  const paper = `rgb(${r.int(225, 250)},${r.int(220, 245)},${r.int(200, 235)})`;
  const ink = `rgb(${r.int(0, 40)},${r.int(0, 40)},${r.int(10, 60)})`;
  const weight = r.chance(0.3) ? 'bold' : 'normal';
  const values = [truth.branch, truth.detaineeNumber, truth.examinationNumber];
  const labelWords = ['فرع', 'رقم المعتقل', 'رقم الفحص'];
  let text = '';
  values.forEach((v, i) => {
    const y = Math.round(-ch / 2 + ch * (0.27 + 0.27 * i) + size * 0.35);
    const shown = v.includes('/') ? `${show(v.split('/')[0]!)}/${v.split('/')[1]}` : show(v);
    const x = labels ? -cw / 2 + cw * 0.08 : 0;
    const anchor = labels ? 'start' : 'middle';
    text += `<text x="${x}" y="${y}" font-family="${font}" font-weight="${weight}" font-size="${size}" text-anchor="${anchor}" direction="ltr" unicode-bidi="bidi-override" fill="${ink}">${xmlText(shown)}</text>`;
    if (labels) {
      text += `<text x="${cw / 2 - cw * 0.06}" y="${y}" font-family="Noto Naskh Arabic" font-size="${Math.round(size * 0.7)}" text-anchor="end" fill="${ink}">${labelWords[i]}</text>`;
    }
  });
  let card = options.noCard
    ? ''
    : `<g transform="translate(${cx},${cy}) rotate(${angle.toFixed(2)})"><rect x="${-cw / 2}" y="${-ch / 2}" width="${cw}" height="${ch}" rx="6" fill="${paper}"/>${text}</g>`;
  if (hard && !options.noCard) {
    // Something over one corner of the card (a sheet, a hand): never over the numbers' middle.
    const corner = r.pick([
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ]);
    const ox = cx + (corner[0]! * cw) / 2;
    const oy = cy + (corner[1]! * ch) / 2;
    card += `<circle cx="${ox}" cy="${oy}" r="${r.int(30, 55)}" fill="rgb(${r.int(50, 90)},${r.int(40, 70)},${r.int(30, 60)})"/>`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${scene}${card}</svg>`;
  let img = sharp(Buffer.from(svg));
  let quality = r.int(80, 92);
  if (hard) {
    const dim = r.between(0.45, 0.8);
    img = sharp(
      await img
        .blur(r.between(0.6, 1.6))
        .linear(dim, r.between(0, 10))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
        .then(({ data }) => {
          // Sensor noise.
          for (let i = 0; i < data.length; i++)
            data[i] = Math.max(0, Math.min(255, data[i]! + (r.next() - 0.5) * 36));
          return data;
        }),
      { raw: { width: W, height: H, channels: 3 } },
    );
    quality = r.int(30, 60);
  }
  const image = await img.jpeg({ quality }).toBuffer();
  return {
    name: `${hard ? 'hard' : 'printed'}-${seed}`,
    image,
    truth: options.noCard ? null : truth,
    digits,
    font,
    labels,
    hard,
  };
}

/** A card set: `count` photos from `seed`, and `noCard` photos with no card at all. */
export async function cardSet(options: {
  hard: boolean;
  count: number;
  seed: number;
  noCard?: number;
}): Promise<CardSample[]> {
  const out: CardSample[] = [];
  for (let i = 0; i < options.count; i++)
    out.push(await cardSample(options.seed + i, { hard: options.hard }));
  for (let i = 0; i < (options.noCard ?? 0); i++)
    out.push(await cardSample(options.seed + 100_000 + i, { hard: options.hard, noCard: true }));
  return out;
}

/* ------------------------------------------------------------------ registry pages */

const firstNames = [
  'محمد',
  'أحمد',
  'علي',
  'حسن',
  'خالد',
  'عمر',
  'يوسف',
  'إبراهيم',
  'مصطفى',
  'سامر',
  'باسل',
  'فادي',
  'رامي',
  'وائل',
  'ماهر',
  'أنس',
  'زياد',
  'طارق',
  'نور',
  'هاني',
];
const fatherNames = [
  'عبد الله',
  'محمود',
  'عبد الرحمن',
  'سليم',
  'جميل',
  'فيصل',
  'نبيل',
  'كمال',
  'رياض',
  'عادل',
];
const familyNames = [
  'الحلبي',
  'الشامي',
  'العلي',
  'الخطيب',
  'الأحمد',
  'المصري',
  'الحمصي',
  'السيد',
  'الدرويش',
  'النجار',
  'الزعبي',
  'القاسم',
  'الحسن',
  'العمر',
  'البكري',
];

/**
 * Names athar's lexicon (src/names) does not list, SYNTHETIC: rare given and family names (a test checks that none
 * is listed), and names made from random roots on common patterns. Pages draw at least half their rows from these,
 * so that what is tuned to the lexicon (tesseract's user words) is measured on names it does not know as well.
 */
export const unlistedGiven = [
  'شمدين',
  'زهدي',
  'دعاس',
  'عنتر',
  'صفوك',
  'هزاع',
  'مطيع',
  'نوفل',
  'جدعان',
  'عكاشة',
  'سحبان',
  'شهاب',
  'مفلح',
  'زبير',
  'عطية',
  'ميسرة',
  'دحام',
  'فرحان',
  'شتيوي',
  'حمادة',
  'سويلم',
  'مشعل',
  'متعب',
];
export const unlistedFamily = [
  'الجربا',
  'البوكمالي',
  'الدناوي',
  'الطحان',
  'الكيالي',
  'الجندلي',
  'البرازي',
  'الزهراوي',
  'السراقبي',
  'الفرواتي',
  'الحمامي',
  'الكحالة',
  'القطيفاني',
  'العجيلي',
  'الفحام',
  'الكبيسي',
  'الصواف',
  'الشبلي',
  'الدبس',
  'الخياط',
  'العرقسوسي',
];
const rootLetters = [...'بتثجحخدذرزسشصضطظعغفقكلمن'];
const givenPatterns = ['1ا23', '12ي3', '12ا3', 'م12و3', '123ان', '123ي'];
const familyPatterns = ['ال123ي', 'ال1ا23ي', 'ال12ا3ي', 'ال123اني', 'ال12ا3'];

/** A name made from a random root on a pattern, drawn again until the lexicon does not list it. */
function madeName(r: Rand, patterns: readonly string[]): string {
  for (;;) {
    const root = [r.pick(rootLetters), r.pick(rootLetters), r.pick(rootLetters)];
    const name = r.pick(patterns).replace(/[123]/g, (d) => root[Number(d) - 1]!);
    if (!isListed(name)) return name;
  }
}

/** An unlisted full name: first, father's and family name, each a rare name or a made one (half each). */
function unlistedName(r: Rand): string {
  const given = () => (r.chance(0.5) ? r.pick(unlistedGiven) : madeName(r, givenPatterns));
  const first = given();
  const father = given();
  const family = r.chance(0.5) ? r.pick(unlistedFamily) : madeName(r, familyPatterns);
  return `${first} ${father} ${family}`;
}

export interface PageRowTruth {
  name: string;
  /** Whether the name was drawn from the lexicon's names (else every part is unlisted). */
  listed: boolean;
  number: string;
  /** With `dates`: the row's date of arrest, YYYY-MM-DD (drawn as d/m/yyyy, in Latin or Arabic-Indic digits). */
  date?: string;
  /** Where the name was drawn, in page pixels (before skew). */
  nameBox: { x: number; y: number; width: number; height: number };
}

export interface PageSample {
  name: string;
  image: Buffer;
  rows: PageRowTruth[];
  handwritten: boolean;
}

/**
 * One scanned registry page: a ruled table of rows (number, full name), typed Arabic, with a stamp, a small skew
 * and scanner noise. "handwritten" draws the names in a Nastaliq face, irregularly placed and sized: a stand-in
 * for a hand, reported as it measures.
 */
export async function pageSample(
  seed: number,
  options: {
    handwritten: boolean;
    dates?: 'latin' | 'indic';
    /**
     * 'mixed' (default): at least half the rows' names unlisted in the lexicon; 'common': every name from the
     * common pool (the pages the recorded TSV fixtures were read from).
     */
    names?: 'mixed' | 'common';
    /** A worn photocopy: blurred, faded, toner specks and a streak. */
    worn?: boolean;
  },
): Promise<PageSample> {
  const r = new Rand(seed);
  const W = 1240;
  const H = 1754;
  const rows: PageRowTruth[] = [];
  const rowH = 56;
  const top = 220;
  const count = r.int(18, 24);
  const font = options.handwritten
    ? 'Noto Nastaliq Urdu'
    : r.pick(['Noto Naskh Arabic', 'Noto Sans Arabic', 'DejaVu Sans']);
  let body = `<rect width="${W}" height="${H}" fill="rgb(${r.int(235, 250)},${r.int(232, 248)},${r.int(220, 240)})"/>`;
  body += `<text x="${W - 120}" y="130" font-family="Noto Naskh Arabic" font-size="40" text-anchor="end" fill="#222">قائمة بأسماء الموقوفين</text>`;
  if (options.dates)
    body += `<text x="470" y="${top - 24}" font-family="Noto Naskh Arabic" font-size="28" text-anchor="middle" fill="#222">تاريخ الاعتقال</text>`;
  // Which rows are unlisted: ceil(count / 2) of them, placed at random, drawn from a second generator so that the
  // 'common' pages stay as they were.
  const mixed = (options.names ?? 'mixed') === 'mixed';
  const u = new Rand(seed ^ 0x5eed);
  const unlisted = Array.from({ length: count }, (_, i) => mixed && i < Math.ceil(count / 2));
  for (let i = count - 1; i > 0; i--) {
    const j = u.int(0, i);
    [unlisted[i], unlisted[j]] = [unlisted[j]!, unlisted[i]!];
  }
  for (let i = 0; i < count; i++) {
    const y = top + i * rowH;
    const common = `${r.pick(firstNames)} ${r.pick(fatherNames)} ${r.pick(familyNames)}`;
    const name = unlisted[i] ? unlistedName(u) : common;
    const number = String(r.int(1, 9999));
    const size = options.handwritten ? r.int(26, 34) : 30;
    const dx = options.handwritten ? r.int(-20, 20) : 0;
    const nameRight = W - 300 + dx;
    body += `<line x1="100" y1="${y + rowH}" x2="${W - 100}" y2="${y + rowH}" stroke="#555" stroke-width="1.5"/>`;
    body += `<text x="${W - 140}" y="${y + 38}" font-family="DejaVu Sans" font-size="26" text-anchor="end" fill="#222">${i + 1}</text>`;
    body += `<text x="${nameRight}" y="${y + 38}" font-family="${font}" font-size="${size}" text-anchor="end" fill="#1a1a2a">${name}</text>`;
    body += `<text x="220" y="${y + 38}" font-family="DejaVu Sans" font-size="26" text-anchor="middle" fill="#222">${number}</text>`;
    let date: string | undefined;
    if (options.dates) {
      const [yy, mm, dd] = [r.int(2011, 2016), r.int(1, 12), r.int(1, 28)];
      date = `${yy}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
      const indic = (n: number) =>
        options.dates === 'indic'
          ? String(n).replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)))
          : String(n);
      body += `<text x="470" y="${y + 38}" font-family="Noto Naskh Arabic" font-size="28" text-anchor="middle" fill="#222">${indic(dd)}/${indic(mm)}/${indic(yy)}</text>`;
    }
    rows.push({
      name,
      listed: !unlisted[i],
      number,
      ...(date ? { date } : {}),
      nameBox: { x: 360, y, width: nameRight - 360, height: rowH },
    });
  }
  body += `<line x1="${W - 180}" y1="${top}" x2="${W - 180}" y2="${top + count * rowH}" stroke="#555"/><line x1="320" y1="${top}" x2="320" y2="${top + count * rowH}" stroke="#555"/>`;
  // A stamp, in the margin or over the title.
  const sx = r.int(150, 450);
  // A dated page keeps its stamp off the date column's heading, at the foot of the page.
  const sy = options.dates ? H - 160 + r.int(0, 40) : r.int(60, 170);
  body += `<g opacity="0.55"><circle cx="${sx}" cy="${sy}" r="70" fill="none" stroke="#2a3aa0" stroke-width="5"/><text x="${sx}" y="${sy + 10}" font-family="Noto Naskh Arabic" font-size="26" text-anchor="middle" fill="#2a3aa0">ختم</text></g>`;
  const angle = r.between(-1.5, 1.5);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#fff"/><g transform="rotate(${angle.toFixed(2)} ${W / 2} ${H / 2})">${body}</g></svg>`;
  const { data } = await sharp(Buffer.from(svg))
    .greyscale()
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i++)
    data[i] = Math.max(0, Math.min(255, data[i]! + (r.next() - 0.5) * 24));
  const image = options.worn
    ? await wear(data, W, H, new Rand(seed ^ 0x3a11))
    : await sharp(data, { raw: { width: W, height: H, channels: 1 } })
        .png()
        .toBuffer();
  return {
    name: `${options.worn ? 'worn' : options.handwritten ? 'handwritten' : 'typed'}-${seed}`,
    image,
    rows,
    handwritten: options.handwritten,
  };
}

/** A photocopy of a photocopy: the page blurred, its ink faded and its paper greyed, toner specks, a dark streak. */
async function wear(data: Buffer, W: number, H: number, r: Rand): Promise<Buffer> {
  const { data: soft } = await sharp(data, { raw: { width: W, height: H, channels: 1 } })
    .blur(r.between(0.8, 1.3))
    .linear(r.between(0.55, 0.7), r.between(50, 75))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let k = 0; k < 2500; k++) {
    const x = r.int(0, W - 3);
    const y = r.int(0, H - 3);
    const size = r.chance(0.8) ? 1 : 2;
    for (let dy = 0; dy <= size; dy++)
      for (let dx = 0; dx <= size; dx++) soft[(y + dy) * W + x + dx] = r.int(40, 110);
  }
  const sx = r.int(80, W - 80);
  for (let y = 0; y < H; y++)
    for (let dx = 0; dx < 3; dx++) soft[y * W + sx + dx] = Math.max(0, soft[y * W + sx + dx]! - 70);
  return sharp(soft, { raw: { width: W, height: H, channels: 1 } })
    .png()
    .toBuffer();
}
