import type { Generated } from 'kysely';

/**
 * The database as Kysely sees it, on both dialects. Conventions (docs/decisions.md):
 * - ids are text (UUIDv7 from src/ids.ts, or stable slugs for seeded places);
 * - times are ISO-8601 UTC text, `2026-11-29T15:35:38.123Z`, which sorts and compares the same on both;
 * - booleans are integers 0/1; JSON is text; raw bytes are blobs (bytea on PostgreSQL).
 */
export interface Database {
  meta: MetaTable;
  governorates: GovernorateTable;
  governorate_aliases: GovernorateAliasTable;
  branches: BranchTable;
  branch_aliases: BranchAliasTable;
  sources: SourceTable;
  records: RecordTable;
  persons: PersonTable;
  record_links: RecordLinkTable;
  events: EventTable;
  evidence_items: EvidenceItemTable;
  annotations: AnnotationTable;
  custody_events: CustodyEventTable;
  candidate_pairs: CandidatePairTable;
  decisions: DecisionTable;
  identifications: IdentificationTable;
  users: UserTable;
  sessions: SessionTable;
  audit_log: AuditLogTable;
  ledger_queue: LedgerQueueTable;
  ledger_entries: LedgerEntryTable;
  ledger_tiles: LedgerTileTable;
  ledger_rows: LedgerRowTable;
  ledger_checkpoints: LedgerCheckpointTable;
  ledger_state: LedgerStateTable;
  ingest_runs: IngestRunTable;
  evidence_locations: EvidenceLocationTable;
  evidence_groups: EvidenceGroupTable;
  api_tokens: ApiTokenTable;
  rate_limits: RateLimitTable;
  sign_in_backoff: SignInBackoffTable;
  bodies: BodyTable;
  body_labels: BodyLabelTable;
  identification_steps: IdentificationStepTable;
  family_reports: FamilyReportTable;
  report_consents: ReportConsentTable;
  antemortem_profiles: AntemortemProfileTable;
  contacts: ContactTable;
  assertions: AssertionTable;
  relations: RelationTable;
  record_name_keys: RecordNameKeyTable;
  imports: ImportTable;
  tracing_queue: TracingQueueTable;
  model_links: ModelLinkTable;
  link_constraints: LinkConstraintTable;
  tracing_runs: TracingRunTable;
  job_locks: JobLockTable;
  report_candidates: ReportCandidateTable;
  export_requests: ExportRequestTable;
  uploads: UploadTable;
  report_notes: ReportNoteTable;
  ocr_reads: OcrReadTable;
  ocr_proposals: OcrProposalTable;
  ocr_page_reads: OcrPageReadTable;
  ocr_rows: OcrRowTable;
  account_requests: AccountRequestTable;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface GovernorateTable {
  id: string;
  iso_code: string;
  name_en: string;
  name_ar: string;
}

export interface GovernorateAliasTable {
  governorate_id: string;
  alias: string;
  alias_key: string;
}

export interface BranchTable {
  id: string;
  number: number | null;
  kind: string;
  agency: string;
  name_en: string;
  name_ar: string;
  governorate_id: string | null;
  notes: string | null;
  /** The unit above (branch → directorate → agency); migration 0013. */
  parent_id: string | null;
  /** Null for the gazetteer's own units. */
  created_at: string | null;
  created_by: string | null;
}

export interface BranchAliasTable {
  branch_id: string;
  alias: string;
  alias_key: string;
  /** Null for the gazetteer's own spellings; migration 0013. */
  created_at: string | null;
  created_by: string | null;
}

export interface SourceTable {
  id: string;
  name: string;
  /** organisation | document | family | leak | registry | list | other */
  kind: string;
  description: string | null;
  reliability_notes: string | null;
  created_at: string;
  created_by: string | null;
}

/** What one source says about one person: the row as given, and normalised fields beside it. */
export interface RecordTable {
  id: string;
  source_id: string;
  /** The source's own id for the row (the CSV's record_id), unique per source. */
  external_id: string | null;
  /** family_report | registry_line | death_notice | diaspora_list | evidence_card | other */
  kind: string;
  /** The row exactly as received (JSON object of the original fields, script as given). */
  original: string;
  full_name: string | null;
  first_name: string | null;
  father_name: string | null;
  grandfather_name: string | null;
  family_name: string | null;
  mother_name: string | null;
  /** Matching forms of the names (names.normalize), space-joined in part order. */
  name_normalized: string | null;
  /** ar | latn | mixed | none */
  name_script: string;
  sex: string | null;
  /** ISO date with the precision given: YYYY, YYYY-MM or YYYY-MM-DD. */
  birth_date: string | null;
  birth_year: number | null;
  governorate_id: string | null;
  place_of_origin: string | null;
  arrest_date: string | null;
  arresting_branch_id: string | null;
  detainee_number: string | null;
  death_date: string | null;
  forensic_report_number: string | null;
  notes: string | null;
  created_at: string;
  created_by: string | null;
}

export interface PersonTable {
  id: string;
  created_at: string;
  created_by: string | null;
  /** Set when every record of this person went to another: that person (follow it; it may be merged too). */
  merged_into: string | null;
  merged_at: string | null;
}

/** A record's membership of a person. Never deleted: unlinking closes the row. */
export interface RecordLinkTable {
  id: string;
  record_id: string;
  person_id: string;
  linked_at: string;
  linked_by: string | null;
  /** review_decision | manual | import | identification */
  basis: string;
  decision_id: string | null;
  note: string | null;
  unlinked_at: string | null;
  unlinked_by: string | null;
  unlink_reason: string | null;
}

export interface EventTable {
  id: string;
  person_id: string | null;
  record_id: string | null;
  /** birth | arrest | held_at | transfer | trial | sighting | release | death | burial | found | residence */
  type: string;
  date_start: string | null;
  date_end: string | null;
  /** day | month | year | estimated | range | unknown */
  date_precision: string;
  place: string | null;
  governorate_id: string | null;
  branch_id: string | null;
  description: string | null;
  created_at: string;
  created_by: string | null;
}

export interface EvidenceItemTable {
  id: string;
  sha256: string;
  size_bytes: number;
  media_type: string;
  /** The file name as found, exactly: base64 of its bytes (names need not be UTF-8). */
  original_name_b64: string | null;
  /** The file name for display (lossy UTF-8). */
  original_name: string | null;
  source_id: string | null;
  width: number | null;
  height: number | null;
  orientation: number | null;
  pdq: string | null;
  pdq_quality: number | null;
  /** EXIF/XMP/IPTC as JSON text. */
  metadata: string | null;
  decodable: number;
  decode_error: string | null;
  /** Graphic until someone says otherwise: derived views are blurred by default. */
  graphic: number;
  thumbnail_sha256: string | null;
  blurred_sha256: string | null;
  created_at: string;
  created_by: string | null;
  /** decoded | undecodable | pixel_limit | not_image (migration 0005; null on rows made before it). */
  decode_status: string | null;
  /** The ingest run that first stored the item. */
  ingest_run_id: string | null;
}

export interface AnnotationTable {
  id: string;
  evidence_id: string;
  /** detainee_number | branch_number | forensic_report_number | note | ... */
  kind: string;
  value: string;
  value_key: string;
  /** card | body | overlay | file_name | folder | other */
  read_from: string | null;
  record_id: string | null;
  created_at: string;
  created_by: string | null;
}

export interface CustodyEventTable {
  id: string;
  evidence_id: string | null;
  /** acquired | ingested | viewed_original | viewed_unblurred | annotated | exported | transferred | hold | release */
  kind: string;
  actor: string;
  at: string;
  reason: string | null;
  details: string | null;
  ledger_index: number | null;
}

export interface CandidatePairTable {
  id: string;
  /** record_a < record_b, so a pair has one row. */
  record_a: string;
  record_b: string;
  probability: number;
  match_weight: number;
  model_version: string;
  explanation: string | null;
  /** open | decided */
  status: string;
  created_at: string;
  /** How much a reviewer's minute does on it; the queue serves higher first (docs/tracing.md). */
  priority: number;
}

export interface DecisionTable {
  id: string;
  record_a: string;
  record_b: string;
  /** match | non_match | unsure */
  decision: string;
  reviewer_id: string;
  decided_at: string;
  model_version: string | null;
  note: string | null;
  /** A later decision on the same pair supersedes this one. */
  superseded_by: string | null;
}

export interface IdentificationTable {
  id: string;
  evidence_id: string;
  person_id: string;
  /** proposed | confirmed | family_informed | rejected | withdrawn */
  status: string;
  basis: string | null;
  proposed_by: string;
  proposed_at: string;
  first_confirmed_by: string | null;
  first_confirmed_at: string | null;
  second_confirmed_by: string | null;
  second_confirmed_at: string | null;
  informed_by: string | null;
  informed_at: string | null;
}

export interface UserTable {
  id: string;
  username: string;
  display_name: string | null;
  password_hash: string;
  /** admin | documenter | reviewer | liaison | investigator */
  role: string;
  /** Sealed (`sealed:v1:…`, src/services/accounts/totp-seeds.ts); in clear only before migration 0016's time. */
  totp_secret: string | null;
  totp_required: number;
  disabled: number;
  must_change_password: number;
  /** No longer read: the sign-in back-off (table sign_in_backoff) replaced the lockout (migration 0016). */
  failed_logins: number;
  locked_until: string | null;
  created_at: string;
  /** Offered at enrolment; becomes totp_secret once a code from it is confirmed. */
  totp_pending_secret: string | null;
  /** The last accepted TOTP time step, so a code cannot be used twice. */
  totp_last_step: number | null;
}

export interface SessionTable {
  /** SHA-256 of the session token; the token itself is never stored. */
  id: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  /** 1 while the user must still enrol TOTP: only the enrolment routes answer. */
  enrolment_only: Generated<number>;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  actor_id: string | null;
  actor_role: string | null;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  details: string | null;
  ip: string | null;
}

/** Log entries staged by their callers' transactions, waiting for the sequencer (docs/ledger.md). */
export interface LedgerQueueTable {
  id: Generated<number>;
  /** The entry's canonical JSON, exactly as it will be logged. */
  entry: string;
  staged_at: string;
}

/** The log: entry `idx` is leaf `idx` of the Merkle tree. */
export interface LedgerEntryTable {
  idx: number;
  /** The entry's canonical JSON: its bytes are leaf `idx`. */
  entry: string;
}

/** One c2sp.org/tlog-tiles tile per row; a partial tile grows in place until it is full (256 hashes). */
export interface LedgerTileTable {
  level: number;
  idx: number;
  /** Concatenated 32-byte hashes. */
  hashes: Buffer;
}

/** The latest entry that vouches for each covered row, and the row digest it gave. */
export interface LedgerRowTable {
  table_name: string;
  row_id: string;
  idx: number;
  sha256: string;
}

/** Every checkpoint signed, as served (a signed note). */
export interface LedgerCheckpointTable {
  size: number;
  /** Root hash, base64. */
  root: string;
  note: string;
  created_at: string;
}

/** One row (id 1): the tree size the sequencer has reached. */
export interface LedgerStateTable {
  id: number;
  size: number;
  updated_at: string;
}

/** One `athar ingest`: who ran it, on what, with which athar, and how it ended. */
export interface IngestRunTable {
  id: string;
  started_at: string;
  finished_at: string | null;
  /** running | finished | interrupted | failed */
  status: string;
  actor: string;
  custodian: string | null;
  source_id: string | null;
  note: string | null;
  /** JSON array of { path, path_b64 }: the folders and files named on the command line, resolved. */
  roots: string;
  athar_version: string;
  host: string;
  pid: number;
  /** JSON of the run's summary counts, when it ended. */
  counts: string | null;
}

/** Every place an item's exact bytes were found: one item, possibly many copies and names. */
export interface EvidenceLocationTable {
  id: string;
  evidence_id: string;
  ingest_run_id: string;
  source_id: string | null;
  /** SHA-256 (hex) of the path's bytes, for lookups. */
  path_key: string;
  /** The absolute path exactly, as base64 of its bytes (paths need not be UTF-8). */
  path_b64: string;
  /** The path for display (lossy UTF-8). */
  path: string;
  size_bytes: number;
  modified_at: string | null;
  found_at: string;
}

/** Near-duplicate group of each PDQ-hashed item (see src/evidence/near-duplicates.ts). */
export interface EvidenceGroupTable {
  evidence_id: string;
  /** The id of the group's oldest member. */
  group_id: string;
  nearest_id: string | null;
  nearest_distance: number | null;
  assigned_at: string;
}

/** A script's credential: hashed at rest, scoped to a subset of its owner's permissions (migration 0006). */
export interface ApiTokenTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  /** JSON array of permissions. */
  scopes: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * A fixed-window counter for rate limits (family intake and status lookup; migration 0016). The key is an HMAC that
 * names one window; `bucket` is the start of the 6-hour span in which the window ends, for pruning.
 */
export interface RateLimitTable {
  key: string;
  bucket: string;
  count: number;
}

/** The sign-in back-off of one address or one typed username, by an HMAC key (migration 0016). */
export interface SignInBackoffTable {
  key: string;
  /** Failed (or not yet finished) attempts since the count was last forgotten. */
  failures: number;
  /** No attempt is taken before this time. */
  not_before: string;
  /** After this, the count is forgotten (and the row may be pruned). */
  forget_after: string;
}

/** A photographed body, keyed on (collection, branch, detainee number, examination number) (migration 0009). */
export interface BodyTable {
  id: string;
  collection: string;
  /** identifierKey of each part; '' when the part is unknown. */
  branch_key: string;
  detainee_key: string;
  examination_key: string;
  branch: string | null;
  detainee_number: string | null;
  examination_number: string | null;
  created_at: string;
  created_by: string | null;
}

/** One label as read on one evidence item: its part of the body key, the value as written, and where. */
export interface BodyLabelTable {
  id: string;
  body_id: string;
  evidence_id: string;
  /** branch | detainee_number | examination_number | other */
  part: string;
  value: string;
  value_key: string;
  /** card | body | overlay | file_name | folder | other */
  read_from: string;
  created_at: string;
  created_by: string | null;
}

/** Each step of an identification: who proposed, confirmed, informed the family or rejected it, and when. */
export interface IdentificationStepTable {
  id: string;
  identification_id: string;
  /** proposed | confirmed | family_informed | rejected */
  step: string;
  actor: string;
  at: string;
  note: string | null;
}

/** A family's missing-person report (migration 0010): its case reference, hashed secret and coarse status. */
export interface FamilyReportTable {
  id: string;
  reference: string;
  /** SHA-256 hex of the case secret. */
  secret_hash: string;
  /** received | under_review | contact_liaison | closed */
  status: string;
  record_id: string;
  /** ar | en */
  language: string;
  /** public | liaison */
  channel: string;
  filed_by: string | null;
  created_at: string;
  status_changed_at: string;
  status_changed_by: string | null;
  /** The liaison the report is assigned to; migration 0013. */
  assigned_to: string | null;
  assigned_at: string | null;
}

/** One consent choice for one purpose of one report; append-only, the latest per purpose holds. */
export interface ReportConsentTable {
  id: string;
  report_id: string;
  purpose: string;
  /** 0/1 */
  granted: number;
  recorded_at: string;
  recorded_by: string | null;
}

export interface AntemortemProfileTable {
  id: string;
  report_id: string;
  /** JSON: every profile field, each a value, 'unknown' or 'not_asked'. */
  profile: string;
  created_at: string;
  created_by: string | null;
}

/** A report's contact details, sealed with AES-256-GCM (restricted table). */
export interface ContactTable {
  id: string;
  report_id: string;
  /** Ciphertext ‖ 16-byte GCM tag. */
  ciphertext: Buffer;
  /** 12-byte GCM nonce. */
  nonce: Buffer;
  key_id: string;
  created_at: string;
}

/** A claim a source made about a record or a person (migration 0008). Append-only: corrections are new claims. */
export interface AssertionTable {
  id: string;
  record_id: string | null;
  person_id: string | null;
  /** information_sought | believed_alive | believed_missing | believed_dead | seen_in_detention | … (src/domain/case-status.ts) */
  kind: string;
  statement: string | null;
  asserted_at: string;
  asserted_by: string | null;
  source_id: string | null;
  created_at: string;
  created_by: string | null;
}

/** A typed relation between two persons with its certainty; retracted, never deleted (migration 0008). */
export interface RelationTable {
  id: string;
  person_a: string;
  person_b: string;
  /** same_person | parent_child | sibling | spouse | alleged_perpetrator */
  type: string;
  /** maybe | likely | certain */
  certainty: string;
  note: string | null;
  created_at: string;
  created_by: string | null;
  retracted_at: string | null;
  retracted_by: string | null;
  retract_reason: string | null;
}

/** The names module's blocking keys of a record's name parts, for name search (migration 0008). */
export interface RecordNameKeyTable {
  key: string;
  record_id: string;
}

/** A CSV import and its progress (migration 0008). */
export interface ImportTable {
  id: string;
  /** running | finished | failed */
  status: string;
  kind: string;
  source_name: string | null;
  file_name: string;
  dry_run: number;
  total: number;
  done: number;
  created: number;
  skipped: number;
  /** JSON array of { row, line, field, message }, capped. */
  errors: string;
  error_count: number;
  failure: string | null;
  created_at: string;
  created_by: string | null;
  finished_at: string | null;
}

/** Records (kind record) and evidence items with new labels (kind label) waiting to be linked and matched. */
export interface TracingQueueTable {
  seq: Generated<number>;
  kind: string;
  subject_id: string;
  import_id: string | null;
  enqueued_at: string;
}

/** The provenance of a link the model made. */
export interface ModelLinkTable {
  link_id: string;
  run_id: string;
  model_version: string;
  matched_record: string;
  probability: number;
  match_weight: number;
  explanation: string | null;
}

/** Two records a person took apart: never linked again by the model. */
export interface LinkConstraintTable {
  id: string;
  record_id: string;
  other_record_id: string;
  created_at: string;
  created_by: string | null;
  reason: string | null;
}

export interface TracingRunTable {
  id: string;
  /** full | incremental */
  kind: string;
  /** running | finished | failed | interrupted */
  status: string;
  stage: string | null;
  done: number;
  total: number;
  records: number;
  links: number;
  review_pairs: number;
  model_version: string | null;
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
  failure: string | null;
}

export interface JobLockTable {
  name: string;
  owner: string;
  run_id: string | null;
  acquired_at: string;
  expires_at: string;
}

export interface ReportCandidateTable {
  id: string;
  report_id: string;
  record_id: string | null;
  evidence_id: string | null;
  probability: number;
  match_weight: number | null;
  model_version: string;
  explanation: string | null;
  created_at: string;
}

/** A password reset awaiting a second admin (migration 0020; docs/access.md). */
export interface AccountRequestTable {
  id: string;
  user_id: string;
  /** password_reset | role_change */
  kind: string;
  reset_totp: number;
  /** The role asked for (role_change); null for a reset. */
  role: string | null;
  /** requested | approved | refused | cancelled | expired */
  status: string;
  requested_by: string;
  requested_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
}

export interface ExportRequestTable {
  id: string;
  /** bundle | export */
  kind: string;
  /** JSON: a bundle's scope, or an export's kind and format. */
  scope: string;
  purpose: string;
  reason: string;
  /** requested | refused | approved | building | ready | failed | expired */
  status: string;
  requested_by: string;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  decision_note: string | null;
  file_name: string | null;
  file_sha256: string | null;
  file_bytes: number | null;
  ready_at: string | null;
  expires_at: string | null;
  fetched_at: string | null;
  failure: string | null;
}

/** A browser upload (migration 0013): files staged, ingested by the same code as `athar ingest`, then removed. */
export interface UploadTable {
  id: string;
  created_by: string;
  created_at: string;
  /** receiving | ingesting | finished | failed */
  status: string;
  files: number;
  bytes: number;
  source_name: string | null;
  note: string | null;
  run_id: string | null;
  /** JSON array of { path, outcome, evidenceId?, reason? }. */
  outcomes: string | null;
  failure: string | null;
  finished_at: string | null;
}

/** A liaison's note on a family report (migration 0013); append-only. */
export interface ReportNoteTable {
  id: string;
  report_id: string;
  body: string;
  created_at: string;
  created_by: string | null;
}

/** One item read by one engine version (migration 0015): its outcome, counted when nothing was proposed. */
export interface OcrReadTable {
  evidence_id: string;
  engine: string;
  /** proposed | no_card | no_numbers | unclear_numbers | not_image | failed */
  outcome: string;
  reason: string | null;
  seconds: number;
  read_at: string;
}

/** A number the machine read (migration 0015): proposed until a reviewer confirms, corrects or rejects it. */
export interface OcrProposalTable {
  id: string;
  evidence_id: string;
  part: string;
  value: string;
  value_key: string;
  confidence: number;
  read_from: string;
  box_x: number;
  box_y: number;
  box_width: number;
  box_height: number;
  engine: string;
  created_at: string;
  /** proposed | confirmed | corrected | rejected */
  status: string;
  corrected_value: string | null;
  decided_by: string | null;
  decided_at: string | null;
  body_label_id: string | null;
}

/** One scanned page read by one engine version (migration 0019): its outcome, and the size its boxes are in. */
export interface OcrPageReadTable {
  evidence_id: string;
  engine: string;
  /** proposed | no_rows | not_image | body_photo | unavailable | failed */
  outcome: string;
  reason: string | null;
  rows: number;
  page_width: number | null;
  page_height: number | null;
  skew: number | null;
  date_column: string | null;
  seconds: number;
  read_at: string;
  read_by: string | null;
  /** Pages read (migration 0023); null on earlier reads, which read one. */
  pages: number | null;
  /** JSON [[width, height], …] a page (migration 0023). */
  page_sizes: string | null;
}

/** A row the machine read on a scanned page (migration 0019): proposed until a documenter decides it. */
export interface OcrRowTable {
  id: string;
  evidence_id: string;
  page: number;
  row_index: number;
  box_x: number;
  box_y: number;
  box_width: number;
  box_height: number;
  text: string;
  /** JSON */
  fields: string;
  /** JSON */
  field_confidence: string;
  confidence: number;
  engine: string;
  created_at: string;
  /** proposed | accepted | corrected | rejected */
  status: string;
  corrected_fields: string | null;
  decided_by: string | null;
  decided_at: string | null;
  record_id: string | null;
  source_id: string | null;
}
