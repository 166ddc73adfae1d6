/**
 * The Soil water layer's code: its legend beside the map and its cells on it. The layer starts
 * hidden (map/map-layers.ts), so the page fetches this when it is first shown
 * (use-soil-water-code.ts), not before its map.
 */
export { SoilWaterLegend } from './soil-water-legend';
export { SoilWaterLayer } from './map/soil-water-layer';
