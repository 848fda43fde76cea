// A second writing process on one SQLite file (as `athar import` beside `athar serve`): counts up a meta value in
// read-then-write transactions and prints how many failed (issue 21, Reliability 1).
import { countUp } from '../src/store/dialects/sqlite-writers.fixture.js';
import { openStore } from '../src/store/store.js';

const store = await openStore({ kind: 'sqlite', file: process.argv[2] as string }, { migrate: false });
process.stdout.write('ready\n');
const failed = await countUp(store, Number(process.argv[3]));
await store.close();
process.stdout.write(`${failed}\n`);
