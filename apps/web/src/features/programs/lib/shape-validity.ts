import { MAX_POLYGON_CORNERS, type PolygonProblem, type Position, polygonProblem } from '@pivot/contracts';

/**
 * The sector editor's check of the drawn shape, by the contract's own rules (polygon-validity in
 * packages/contracts), so that the editor refuses before sending what the server would refuse.
 */
export type ShapeError = 'shapeRequired' | 'shapeCrossing' | 'shapeNoArea' | 'shapeHoleOutside' | 'shapeTooManyCorners';

const SHAPE_ERRORS: Record<PolygonProblem, ShapeError> = {
  self_intersection: 'shapeCrossing',
  zero_area: 'shapeNoArea',
  hole_outside: 'shapeHoleOutside',
  too_many_corners: 'shapeTooManyCorners',
};

/** A polygon needs three corners; the editor closes it at its first vertex. */
export const MIN_CORNERS = 3;

/** The limit the too-many-corners message names. */
export const MAX_CORNERS = MAX_POLYGON_CORNERS;

/** What is wrong with the outline (its corners, not closed) and the holes it keeps, if anything. */
export function shapeError(corners: readonly Position[], holes: readonly Position[][]): ShapeError | undefined {
  if (corners.length < MIN_CORNERS) return 'shapeRequired';
  const problem = polygonProblem([[...corners, corners[0]!], ...holes]);
  return problem ? SHAPE_ERRORS[problem] : undefined;
}
