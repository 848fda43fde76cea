import { describe, expectTypeOf, it } from 'vitest';
import type {
  CustodyEventRow,
  DecisionRow,
  EvidenceItemRow,
  IdentificationRow,
  RecordLinkRow,
  RecordRow,
} from '../ledger/entries.js';
import type {
  CustodyEventTable,
  DecisionTable,
  EvidenceItemTable,
  IdentificationTable,
  RecordLinkTable,
  RecordTable,
} from './schema.js';

describe("the log's row types", () => {
  it('are met by the rows the store keeps (a column renamed in one place fails here)', () => {
    expectTypeOf<CustodyEventTable>().toExtend<CustodyEventRow>();
    expectTypeOf<EvidenceItemTable>().toExtend<EvidenceItemRow>();
    expectTypeOf<RecordTable>().toExtend<RecordRow>();
    expectTypeOf<RecordLinkTable>().toExtend<RecordLinkRow>();
    expectTypeOf<DecisionTable>().toExtend<DecisionRow>();
    expectTypeOf<IdentificationTable>().toExtend<IdentificationRow>();
  });
});
