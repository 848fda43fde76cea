import sharp from 'sharp';
import { readAll } from '../../blobs/fs-blob-store.js';
import { DomainError } from '../../domain/errors.js';
import { nextTurn } from '../../event-loop.js';
import { identifierKey } from '../../evidence/identifiers.js';
import { nowIso } from '../../ids.js';
import { type CardMiss, type cardParts, readCard } from '../../ocr/cards.js';
import type { OcrEngine } from '../../ocr/engine.js';
import { glyphTemplates } from '../../ocr/glyph-templates.js';
import { decodeTemplates, type Template } from '../../ocr/glyphs.js';
import type { Gray } from '../../ocr/raster.js';
import { type OcrOutcome, type OcrProposal, OcrRepository } from '../../store/repositories/ocr.js';
import { OcrRowRepository } from '../../store/repositories/ocr-rows.js';
import type { AppContext } from '../context.js';
import type { BodyLabels, RecordedBodyLabels } from '../evidence/body-labels.js';
import type { EvidenceCatalogue } from '../evidence/evidence.js';
import { TesseractEngine } from './tesseract.js';

/**
 * The card reader's name and version, recorded with every read and proposal: an item read by this version is not
 * read again; a new version (new templates, new rules) reads every item again. Bump it with any change to
 * src/ocr/cards.ts, glyphs.ts or the templates that can change a reading.
 */
export const cardReaderVersion = 'athar-cards/1';

/** The largest picture read for its card (pixels on the long side; larger ones are shrunk on load). */
const maxSide = 2048;

export interface OcrSummary {
  /** Items asked about. */
  items: number;
  /** Already read by this reader version: not read again. */
  alreadyRead: number;
  /** Items with proposals, and the numbers proposed. */
  proposed: number;
  proposals: number;
  /** No proposal: no card found, no numbers, numbers not clear, not a decodable image, the read failed. */
  noCard: number;
  noNumbers: number;
  unclearNumbers: number;
  notImage: number;
  failed: number;
  seconds: number;
  problems: { evidenceId: string; outcome: OcrOutcome; reason: string }[];
}

const emptySummary = (): OcrSummary => ({
  items: 0,
  alreadyRead: 0,
  proposed: 0,
  proposals: 0,
  noCard: 0,
  noNumbers: 0,
  unclearNumbers: 0,
  notImage: 0,
  failed: 0,
  seconds: 0,
  problems: [],
});

const missOutcome: Record<CardMiss, OcrOutcome> = {
  no_card: 'no_card',
  no_numbers: 'no_numbers',
  unclear_numbers: 'unclear_numbers',
};

export interface CardDecision {
  proposal: string;
  action: 'confirm' | 'correct' | 'reject';
  /** The value as the reviewer reads it (for correct). */
  value?: string;
}

/**
 * OCR (docs/ocr.md): reads the cards in body photos into proposed annotations, records every read once per reader
 * version, and turns a reviewer's confirmations and corrections into body labels. The tesseract engine (scanned
 * registries) is opened when first asked for; without it, the card reader still runs.
 */
export class OcrService {
  private opened: { engine: OcrEngine | null; reason?: string } | undefined;
  private templates: Template[] | undefined;
  readonly loop: OcrLoop;

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: { catalogue: EvidenceCatalogue; bodyLabels: BodyLabels },
    private readonly given?: OcrEngine,
  ) {
    this.loop = new OcrLoop(this);
  }

  /** The text engine (tesseract), or null when it is off. */
  engine(): OcrEngine | null {
    return this.open().engine;
  }

  /** Why the text engine is off (one line, with how to turn it on), or null when it is on. */
  offReason(): string | null {
    const o = this.open();
    return o.engine ? null : (o.reason ?? 'OCR is off');
  }

  private open(): { engine: OcrEngine | null; reason?: string } {
    if (this.opened) return this.opened;
    if (this.given) this.opened = { engine: this.given };
    else if (this.ctx.config.ocr.tesseract === null) {
      this.opened = {
        engine: null,
        reason:
          'OCR of scanned registries is off (ATHAR_TESSERACT=off): unset it, with tesseract-ocr and tesseract-ocr-ara installed, to turn it on',
      };
    } else this.opened = TesseractEngine.open({ binary: this.ctx.config.ocr.tesseract });
    return this.opened;
  }

  private cardTemplates(): Template[] {
    this.templates ??= decodeTemplates(glyphTemplates);
    return this.templates;
  }

  /** Reads one photo's card: pure work on decoded pixels, exposed for the bench. */
  readPixels(photo: Gray) {
    return readCard(photo, this.cardTemplates());
  }

  /** Items not yet read by this reader version (of one ingest run, if given), oldest first. */
  async unread(limit: number, ingestRunId?: string): Promise<string[]> {
    const rows = await new OcrRepository(this.ctx.store.db).unread(cardReaderVersion, limit, ingestRunId);
    return rows.map((r) => r.id);
  }

  /**
   * Reads the cards of these items (ids, SHA-256s or prefixes): an item this version read already is skipped; one
   * that fails is recorded with its reason and the rest go on.
   */
  async read(
    refs: readonly string[],
    options: { onItem?: (done: number, total: number) => void; signal?: AbortSignal } = {},
  ): Promise<OcrSummary> {
    const started = performance.now();
    const summary = emptySummary();
    const items = [];
    for (const ref of refs) items.push(await this.deps.catalogue.resolve(ref));
    const unique = [...new Map(items.map((i) => [i.id, i])).values()];
    summary.items = unique.length;
    const repo = new OcrRepository(this.ctx.store.db);
    const done = await repo.readAlready(
      unique.map((i) => i.id),
      cardReaderVersion,
    );
    const pages = await new OcrRowRepository(this.ctx.store.db).readAsPages(unique.map((i) => i.id));
    let n = 0;
    for (const item of unique) {
      if (options.signal?.aborted) break;
      n++;
      if (done.has(item.id)) {
        summary.alreadyRead++;
        options.onItem?.(n, unique.length);
        continue;
      }
      const t0 = performance.now();
      let outcome: OcrOutcome;
      let reason: string | null = null;
      let proposals: Parameters<OcrRepository['recordRead']>[1] = [];
      if (pages.has(item.id)) {
        // Read as a scanned registry page: no body photo, so no card to read.
        outcome = 'not_image';
        reason = 'a scanned page (read as registry rows), not a body photo';
      } else if (item.decodeStatus !== 'decoded' || !item.mediaType.startsWith('image/')) {
        outcome = 'not_image';
        reason =
          item.decodeStatus === 'decoded'
            ? `${item.mediaType} is not an image`
            : `not decoded (${item.decodeStatus})`;
      } else {
        try {
          const bytes = await readAll(await this.ctx.blobs.open(item.sha256));
          const { data, info } = await sharp(bytes, { failOn: 'error' })
            .rotate()
            .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
            .greyscale()
            .raw()
            .toBuffer({ resolveWithObject: true });
          const reading = this.readPixels({
            width: info.width,
            height: info.height,
            data: new Uint8Array(data.buffer, data.byteOffset, data.length),
          });
          // Boxes are given in pixels of the picture as displayed, at its own size.
          const displayedWidth = item.orientation && item.orientation >= 5 ? item.height : item.width;
          const scale = displayedWidth ? displayedWidth / info.width : 1;
          if (reading.found) {
            outcome = 'proposed';
            const at = nowIso(this.ctx.clock);
            proposals = reading.fields.map((f) => ({
              evidenceId: item.id,
              part: f.part,
              value: f.value,
              valueKey: identifierKey(f.value),
              confidence: Math.round(f.confidence * 1000) / 1000,
              readFrom: 'card',
              box: {
                x: Math.round(f.box.x * scale),
                y: Math.round(f.box.y * scale),
                width: Math.round(f.box.width * scale),
                height: Math.round(f.box.height * scale),
              },
              engine: cardReaderVersion,
              createdAt: at,
            }));
          } else outcome = missOutcome[reading.reason];
        } catch (error) {
          outcome = 'failed';
          reason = (error as Error).message.split('\n')[0]!.slice(0, 500);
        }
      }
      const seconds = (performance.now() - t0) / 1000;
      const recorded = await this.ctx.store.transaction((trx) =>
        new OcrRepository(trx).recordRead(
          {
            evidence_id: item.id,
            engine: cardReaderVersion,
            outcome,
            reason,
            seconds: Math.round(seconds * 1000) / 1000,
            read_at: nowIso(this.ctx.clock),
          },
          proposals,
        ),
      );
      if (!recorded) summary.alreadyRead++;
      else {
        if (outcome === 'proposed') {
          summary.proposed++;
          summary.proposals += proposals.length;
        } else if (outcome === 'no_card') summary.noCard++;
        else if (outcome === 'no_numbers') summary.noNumbers++;
        else if (outcome === 'unclear_numbers') summary.unclearNumbers++;
        else if (outcome === 'not_image') summary.notImage++;
        else summary.failed++;
        if (reason) summary.problems.push({ evidenceId: item.id, outcome, reason });
      }
      options.onItem?.(n, unique.length);
      // The server's event loop gets a turn between photos.
      await nextTurn();
    }
    summary.seconds = Math.round((performance.now() - started) / 10) / 100;
    return summary;
  }

  /** Every item of an ingest run not yet read by this version. */
  async itemsOfRun(ingestRunId: string): Promise<string[]> {
    const rows = await new OcrRepository(this.ctx.store.db).unread(
      cardReaderVersion,
      10_000_000,
      ingestRunId,
    );
    return rows.map((r) => r.id);
  }

  async proposals(ref: string): Promise<OcrProposal[]> {
    const item = await this.deps.catalogue.resolve(ref);
    return new OcrRepository(this.ctx.store.db).proposalsFor(item.id);
  }

  /** Proposals waiting for a reviewer, least confident first. */
  async waiting(limit = 100): Promise<OcrProposal[]> {
    return new OcrRepository(this.ctx.store.db).waiting(Math.min(Math.max(1, limit), 1000));
  }

  /**
   * A reviewer's decisions on one card's proposals: confirmed and corrected numbers become the body's labels (read
   * from the card) through BodyLabels — the body-label key, the tracing loop's card matching, a custody event —
   * and every proposal decided records who decided, when, and the label it made. Rejected ones make no label.
   */
  async decide(
    ref: string,
    input: { collection: string; decisions: readonly CardDecision[]; actor: string },
  ): Promise<{ proposals: OcrProposal[]; labels: RecordedBodyLabels | null }> {
    if (!input.actor.trim()) throw new DomainError('invalid', 'an actor is required');
    const item = await this.deps.catalogue.resolve(ref);
    const repo = new OcrRepository(this.ctx.store.db);
    const mine = new Map((await repo.proposalsFor(item.id)).map((p) => [p.id, p]));
    if (input.decisions.length === 0)
      throw new DomainError('invalid', 'decisions: decide at least one proposal');
    const labels: { proposal: OcrProposal; value: string; decision: CardDecision }[] = [];
    const seen = new Set<string>();
    input.decisions.forEach((d, i) => {
      const p = mine.get(d.proposal);
      if (!p)
        throw new DomainError('not_found', `decisions.${i}.proposal: no proposal ${d.proposal} on this item`);
      if (seen.has(p.id)) throw new DomainError('invalid', `decisions.${i}.proposal: decided twice`);
      seen.add(p.id);
      if (p.status !== 'proposed')
        throw new DomainError('conflict', `decisions.${i}.proposal: already ${p.status} by ${p.decidedBy}`);
      if (!['confirm', 'correct', 'reject'].includes(d.action))
        throw new DomainError('invalid', `decisions.${i}.action: confirm, correct or reject`);
      if (d.action === 'correct' && (!d.value?.trim() || !identifierKey(d.value)))
        throw new DomainError('invalid', `decisions.${i}.value: give the number as you read it`);
      if (d.action !== 'reject')
        labels.push({ proposal: p, value: d.action === 'correct' ? d.value!.trim() : p.value, decision: d });
    });
    let recorded: RecordedBodyLabels | null = null;
    if (labels.length > 0) {
      recorded = await this.deps.bodyLabels.record({
        evidence: item.id,
        collection: input.collection,
        labels: labels.map((l) => ({
          part: l.proposal.part as (typeof cardParts)[number],
          value: l.value,
          readFrom: l.proposal.readFrom,
        })),
        actor: input.actor,
      });
    }
    const at = nowIso(this.ctx.clock);
    await this.ctx.store.transaction(async (trx) => {
      const r = new OcrRepository(trx);
      for (const d of input.decisions) {
        const i = labels.findIndex((l) => l.proposal.id === d.proposal);
        await r.decide(d.proposal, {
          status: d.action === 'confirm' ? 'confirmed' : d.action === 'correct' ? 'corrected' : 'rejected',
          correctedValue: d.action === 'correct' ? d.value!.trim() : null,
          by: input.actor,
          at,
          bodyLabelId: i >= 0 && recorded ? (recorded.labels[i]?.id ?? null) : null,
        });
      }
    });
    return { proposals: await repo.proposalsFor(item.id), labels: recorded };
  }

  async close(): Promise<void> {
    await this.loop.stop();
    await this.opened?.engine?.close();
  }
}

/**
 * The server's OCR job: every few seconds, the decoded images no read of this version covers yet (the last
 * ingest's, or any left by a server that stopped) are read, a batch at a time. Never on the ingest's path: the
 * ingest stores and commits; this finds its items afterwards, so a stop at any moment resumes where it was.
 */
export class OcrLoop {
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly ocr: OcrService,
    private readonly pollMs = 5000,
  ) {}

  start(onError: (error: unknown) => void = () => {}): void {
    if (this.running) return;
    this.stopping = false;
    this.running = (async () => {
      while (!this.stopping) {
        let read = 0;
        try {
          const ids = await this.ocr.unread(32);
          if (ids.length > 0) read = (await this.ocr.read(ids)).items;
        } catch (error) {
          onError(error);
        }
        if (read === 0 && !this.stopping) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, this.pollMs);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.wake = undefined;
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    this.running = undefined;
  }
}
