/** Family reports' vocabulary (docs/intake.md). */

export const reportStatuses = ['received', 'under_review', 'contact_liaison', 'closed'] as const;
export type ReportStatus = (typeof reportStatuses)[number];

/** The answers the public status lookup may give: coarse, never a name, a record or an image. */
export const publicStatuses = ['received', 'under_review', 'contact_liaison'] as const;
export type PublicStatus = (typeof publicStatuses)[number];
