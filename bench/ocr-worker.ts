/** A worker of the ocr suite's throughput run: decodes and reads the photos it is given, as the service does. */
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { readCard } from '../src/ocr/cards.js';
import { glyphTemplates } from '../src/ocr/glyph-templates.js';
import { decodeTemplates } from '../src/ocr/glyphs.js';

sharp.concurrency(1);
const templates = decodeTemplates(glyphTemplates);
const images = (workerData as { images: Uint8Array[] }).images;
const started = performance.now();
let found = 0;
for (const image of images) {
  const { data, info } = await sharp(image).rotate().greyscale().raw().toBuffer({ resolveWithObject: true });
  if (readCard({ width: info.width, height: info.height, data: new Uint8Array(data) }, templates).found)
    found++;
}
parentPort!.postMessage({ ms: performance.now() - started, found });
