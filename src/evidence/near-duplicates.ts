/**
 * Near-duplicate groups: photos whose PDQ hashes differ in at most 31 of 256 bits are very likely the same
 * picture (re-encoded, resized, cropped a little, retouched); Meta's published threshold. A group is the
 * connected set of such pairs, named after its oldest member, so a new photo that bridges two groups merges them.
 */

/** Meta's recommended match threshold for PDQ. */
export const nearDuplicateDistance = 31;

/**
 * Below this quality a hash says little (flat, dark or blank images hash alike); such items get a group of their
 * own instead of joining others. Meta's recommended floor.
 */
export const minGroupingQuality = 50;

export interface GroupedNeighbour {
  id: string;
  groupId: string;
  distance: number;
  quality: number | null;
}

export interface GroupChoice {
  groupId: string;
  /** Groups to fold into `groupId` because the new item links them. */
  merged: string[];
  nearest: { id: string; distance: number } | null;
}

/**
 * The group a newly hashed item joins, given its neighbours within the threshold (each with its current group):
 * the oldest group among them (ids are time-ordered UUIDv7, so the smallest is the oldest), and the others merged
 * into it; a group of its own when it has no trustworthy neighbour.
 */
export function chooseGroup(
  selfId: string,
  selfQuality: number,
  neighbours: readonly GroupedNeighbour[],
): GroupChoice {
  const usable = neighbours.filter(
    (n) =>
      n.id !== selfId &&
      n.distance <= nearDuplicateDistance &&
      selfQuality >= minGroupingQuality &&
      (n.quality ?? 0) >= minGroupingQuality,
  );
  if (usable.length === 0) return { groupId: selfId, merged: [], nearest: null };
  const groups = [...new Set(usable.map((n) => n.groupId))].sort();
  const nearest = [...usable].sort((a, b) => a.distance - b.distance || compare(a.id, b.id))[0]!;
  return {
    groupId: groups[0]!,
    merged: groups.slice(1),
    nearest: { id: nearest.id, distance: nearest.distance },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
