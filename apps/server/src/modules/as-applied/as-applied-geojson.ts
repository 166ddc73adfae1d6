import { TimeSlicer } from '../../time/time-slicer';
import type { AsAppliedFeature } from './as-applied-cells';

/** Features written to the response at a time: about 300 kB. */
const FEATURES_PER_CHUNK = 1_000;

function featureJson({ corners, ...properties }: AsAppliedFeature): string {
  // RFC 7946: an exterior ring runs counter-clockwise and ends where it starts.
  const ring = [...corners, corners[0]!];
  return JSON.stringify({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties });
}

/** A few milliseconds of writing features, then the event loop is handed back. */
const SLICE_MS = 5;

/**
 * The features as a GeoJSON FeatureCollection (RFC 7946, WGS 84), written as they come, the event
 * loop handed back every few milliseconds: a reader that takes each chunk at once would otherwise
 * get the whole map in one task.
 */
export async function* geoJsonChunks(features: AsyncIterable<AsAppliedFeature>): AsyncGenerator<string> {
  let chunk = '{"type":"FeatureCollection","features":[';
  let count = 0;
  const slicer = new TimeSlicer(SLICE_MS);
  for await (const feature of features) {
    chunk += `${count === 0 ? '' : ','}\n${featureJson(feature)}`;
    count += 1;
    if (slicer.due()) await slicer.pause();
    if (count % FEATURES_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}\n]}\n`;
}
