/**
 * The worker side of SqliteAppender: a second connection to the same SQLite file that runs each batch of compiled
 * writes in one transaction and answers when it is committed (and, with synchronous=FULL, on disk).
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

export interface AppendJob {
  id: number;
  statements: { sql: string; parameters: unknown[] }[];
}

export type AppendAnswer = { id: number; ok: true } | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('sqlite-appender-worker runs as a worker thread');
const db = new SQLite((workerData as { file: string }).file);
// The settings of openSqlite that matter to a writer: the same durability, and waiting for the main connection.
db.pragma('journal_mode = WAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 10000');
db.pragma('synchronous = FULL');
const prepared = new Map<string, SQLite.Statement>();
const runAll = db.transaction((statements: AppendJob['statements']) => {
  for (const { sql, parameters } of statements) {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (prepared.size < 200) prepared.set(sql, statement);
    }
    statement.run(...parameters);
  }
});

port.on('message', (job: AppendJob | 'close') => {
  if (job === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    runAll(job.statements);
    port.postMessage({ id: job.id, ok: true } satisfies AppendAnswer);
  } catch (error) {
    port.postMessage({ id: job.id, ok: false, message: (error as Error).message } satisfies AppendAnswer);
  }
});
