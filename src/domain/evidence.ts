/**
 * Evidence's vocabulary. Card identifiers are the numbers written on or beside a photographed body: the branch's
 * number, the detainee number that branch gave, and the forensic doctor's examination (report) number.
 */

export const identifierKinds = ['detainee_number', 'branch_number', 'forensic_report_number'] as const;
export type IdentifierKind = (typeof identifierKinds)[number];

/** Annotation kinds: the card identifiers, and free notes. */
export const annotationKinds = [...identifierKinds, 'note'] as const;
export type AnnotationKind = (typeof annotationKinds)[number];

/** Where a value was read: a paper card in the photo, written on the body, a digital overlay, the file's name or its folder. */
export const readFromPlaces = ['card', 'body', 'overlay', 'file_name', 'folder', 'other'] as const;
export type ReadFrom = (typeof readFromPlaces)[number];

export function isAnnotationKind(value: string): value is AnnotationKind {
  return (annotationKinds as readonly string[]).includes(value);
}

export function isReadFrom(value: string): value is ReadFrom {
  return (readFromPlaces as readonly string[]).includes(value);
}

export const ingestRunStatuses = ['running', 'finished', 'interrupted', 'failed'] as const;
export type IngestRunStatus = (typeof ingestRunStatuses)[number];
