import { parentPort } from 'node:worker_threads';
import { eachMoveEntry, type RecordLinkRow } from '../../ledger/entries.js';
import { type PreparedEntry, prepareEntries } from '../../ledger/prepared.js';
import type { WorkerAnswer } from '../../worker-entry.js';

/** One request: part of the links a transaction moved (paired by linkMoves), to become prepared log entries. */
export interface LinkEntriesRequest {
  id: number;
  alone: readonly RecordLinkRow[];
  moves: readonly { opened: RecordLinkRow; closed?: RecordLinkRow }[];
}

export type LinkEntriesReply = { id: number } & WorkerAnswer<PreparedEntry[]>;

/**
 * The log entries of links moved in bulk (digests, encoding, leaf hashes), prepared on a thread of their own while
 * the thread that asked goes on with its transaction's other statements (LinkEntriesThread, link-entries-thread.ts).
 */
parentPort?.on('message', (request: LinkEntriesRequest) => {
  let reply: LinkEntriesReply;
  try {
    reply = { id: request.id, result: prepareEntries(eachMoveEntry(request.alone, request.moves)) };
  } catch (error) {
    const { name, message } = error as Error;
    reply = { id: request.id, error: { name, message } };
  }
  parentPort?.postMessage(reply);
});
