/**
 * The earth as every part of the product measures it: a sphere of the mean radius (IUGG), so
 * that the server's grid, the simulator's machines and the web app's maps agree to the metre.
 */
export const EARTH_RADIUS_M = 6_371_008.8;

/** Metres along a meridian per degree of latitude on that sphere (about 111,195 m). */
export const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;
