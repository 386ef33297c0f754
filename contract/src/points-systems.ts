/** Placement points by finishing position (index 0 = 1st place); positions past the list score 0. */
export const POINTS_SYSTEMS = {
  'bgis-10': [10, 6, 5, 4, 3, 2, 1, 1],
  'bmps-15': [15, 12, 10, 8, 6, 4, 2, 1, 1, 1, 1, 1],
  'freefire-12': [12, 9, 8, 7, 6, 5, 4, 3, 2, 1],
} as const satisfies Record<string, readonly number[]>;

export type PointsSystem = keyof typeof POINTS_SYSTEMS;
export const POINTS_SYSTEM_IDS = /* @__PURE__ */ Object.keys(POINTS_SYSTEMS) as [PointsSystem, ...PointsSystem[]];
export const DEFAULT_POINTS_SYSTEM: PointsSystem = 'bgis-10';

/** Placement points for a finishing position; 0 (no placement recorded) scores 0. */
export function placementPoints(system: string, position: number): number {
  const table: readonly number[] = POINTS_SYSTEMS[system as PointsSystem] ?? POINTS_SYSTEMS[DEFAULT_POINTS_SYSTEM];
  return position >= 1 ? (table[position - 1] ?? 0) : 0;
}
