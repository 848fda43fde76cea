import { msg } from './msg.js';

/**
 * Words the API sends as values (run states, custody actions, link bases, assertion kinds, relation types) and the
 * English key each is shown as. Unknown words pass through unchanged rather than vanish.
 */
const words: Record<string, string> = {
  // run and import states
  queued: msg('queued'),
  pending: msg('pending'),
  running: msg('running'),
  done: msg('done'),
  finished: msg('done'),
  completed: msg('done'),
  succeeded: msg('done'),
  failed: msg('failed'),
  error: msg('failed'),
  cancelled: msg('cancelled'),
  interrupted: msg('interrupted'),
  validated: msg('checked'),
  dry_run: msg('trial run'),
  // export requests
  requested: msg('awaiting approval'),
  approved: msg('approved'),
  building: msg('being built'),
  ready: msg('ready to fetch'),
  refused: msg('refused'),
  expired: msg('expired'),
  // custody
  acquired: msg('acquired'),
  ingested: msg('ingested'),
  viewed: msg('viewed'),
  revealed: msg('revealed'),
  annotated: msg('annotated'),
  exported: msg('exported'),
  transferred: msg('transferred'),
  hold: msg('put on hold'),
  release: msg('released from hold'),
  restored: msg('restored'),
  viewed_unblurred: msg('viewed unblurred'),
  viewed_original: msg('original viewed'),
  // where a label was read
  card: msg('card'),
  body: msg('written on the body'),
  overlay: msg('digital overlay'),
  file_name: msg('file name'),
  folder: msg('folder'),
  other: msg('other'),
  // record kinds
  family_report: msg('Family report'),
  registry_line: msg('Line of a registry or list'),
  death_notice: msg('Death notice'),
  diaspora_list: msg('Diaspora list'),
  evidence_card: msg('Evidence card'),
  // link bases
  review: msg('by a reviewer'),
  manual: msg('by hand'),
  import: msg('at import'),
  automatic: msg('automatically'),
  record: msg('its own record'),
  model: msg('by the linkage model'),
  review_decision: msg('by a reviewer'),
  // assertion kinds
  information_sought: msg('information sought'),
  believed_alive: msg('believed alive'),
  believed_missing: msg('believed missing'),
  believed_dead: msg('believed dead'),
  seen_in_detention: msg('seen in detention'),
  death_reported_by_civil_registry: msg('death reported by the civil registry'),
  death_certificate_found: msg('death certificate found'),
  family_recognition_in_photo: msg('family recognised a photograph'),
  identified_by_dna: msg('identified by DNA'),
  // sex (the registry stores m and f)
  male: msg('Male'),
  female: msg('Female'),
  m: msg('Male'),
  f: msg('Female'),
  // relations
  same_person: msg('same person'),
  parent: msg('parent'),
  child: msg('child'),
  sibling: msg('sibling'),
  spouse: msg('spouse'),
  alleged_perpetrator_of: msg('alleged perpetrator of'),
  maybe: msg('maybe'),
  likely: msg('likely'),
  certain: msg('certain'),
};

export function apiWord(word: string | null | undefined): string {
  if (!word) return '';
  return words[word] ?? word;
}
