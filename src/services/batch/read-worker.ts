/**
 * A worker thread that reads one segment of a person-record CSV into prepared features, for the main thread to fold
 * in (`RecordFeatures.absorb`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RecordFeatures } from '../../linkage/features.js';
import { type CsvSegment, readPersonCsv } from './person-csv.js';

export interface ReadJob {
  file: string;
  segment: CsvSegment;
  prefixRowIds: boolean;
}

export interface ReadResult {
  features: ReturnType<RecordFeatures['exportAll']>;
  lines: Int32Array;
  rows: Int32Array;
  derived: Uint8Array;
  ignoredColumns: string[];
}

const job = workerData as ReadJob;
const features = new RecordFeatures(1 << 16);
const lines: number[] = [];
const rows: number[] = [];
const derived: number[] = [];
try {
  const summary = await readPersonCsv(
    job.file,
    (record) => {
      features.add(record.id, record.fields);
      lines.push(record.line);
      rows.push(record.row);
      derived.push(record.derivedId ? 1 : 0);
    },
    { prefixRowIds: job.prefixRowIds, segment: job.segment },
  );
  const result: ReadResult = {
    features: features.exportAll(),
    lines: Int32Array.from(lines),
    rows: Int32Array.from(rows),
    derived: Uint8Array.from(derived),
    ignoredColumns: summary.ignoredColumns,
  };
  parentPort?.postMessage({ result });
} catch (error) {
  parentPort?.postMessage({ error: { name: (error as Error).name, message: (error as Error).message } });
}
