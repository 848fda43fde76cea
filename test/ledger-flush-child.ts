// Sequences a log from a separate process (a second writer, as `athar ledger checkpoint` beside a running server).
import { LedgerSequencer } from '../src/services/ledger/sequencer.js';
import { openStore } from '../src/store/store.js';

const store = await openStore({ kind: 'sqlite', file: process.argv[2] as string });
const { sequenced } = await new LedgerSequencer(store, null, { batchSize: 50 }).flush();
await store.close();
process.stdout.write(`${sequenced}\n`);
