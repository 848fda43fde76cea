import { msg } from '../lib/index.js';

/** Annotation kinds (src/domain/evidence.ts) in words. */
export const annotationKindNames = [
  ['branch_number', msg('Branch number')],
  ['detainee_number', msg('Detainee number')],
  ['forensic_report_number', msg('Examination number')],
  ['note', msg('Note')],
] as const;

/** Where a label was read (src/domain/evidence.ts), in words. */
export const readFromNames = [
  ['card', msg('card')],
  ['body', msg('written on the body')],
  ['overlay', msg('digital overlay')],
  ['file_name', msg('file name')],
  ['folder', msg('folder')],
  ['other', msg('other')],
] as const;
