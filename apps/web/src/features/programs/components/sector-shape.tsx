/// <reference types="@geoman-io/leaflet-geoman-free" />
import type { Position } from '@pivot/contracts';
import { type LatLng, type LatLngTuple, type Layer, type PM, type PathOptions, type Polygon, polygon } from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useMap } from 'react-leaflet';
import type { Locale } from '@/config/locales';
import { geomanOf, loadGeoman } from '../lib/load-geoman';
import { roundedPosition } from '../lib/sector-form';

export type SectorShapeProps = {
  /** The polygon's corners, [longitude, latitude], without the closing one. */
  corners: readonly Position[];
  onCornersChange: (corners: Position[]) => void;
  /** Drawing anew: each click on the map adds a corner; a click on the first corner closes the shape. */
  drawing: boolean;
  /** Called when a drawn shape is closed. */
  onDrawn: () => void;
  style: PathOptions;
  locale: Locale;
  /** Removal mode: a click or a tap on a corner removes it (a right-click does at any time). */
  removing?: boolean;
};

/**
 * Geoman's vertex editing: drag a corner to move it, drag a middle marker to add one, right-click
 * to remove one; in removal mode a plain click or a finger's tap removes one, for touch screens.
 */
const EDIT_OPTIONS: PM.EditModeOptions = {
  allowSelfIntersection: true,
  draggable: false,
  snappable: true,
  snapDistance: 12,
  removeVertexOn: 'contextmenu',
  removeLayerBelowMinVertexCount: false,
};

const editOptions = (removing: boolean): PM.EditModeOptions => ({
  ...EDIT_OPTIONS,
  removeVertexOn: removing ? 'click' : 'contextmenu',
});

function cornersOfLayer(layer: Polygon): Position[] {
  const rings = layer.getLatLngs() as LatLng[][];
  return (rings[0] ?? []).map((point) => roundedPosition(point.lng, point.lat));
}

const sameCorners = (a: readonly Position[], b: readonly Position[]) =>
  a.length === b.length && a.every((corner, index) => corner[0] === b[index]![0] && corner[1] === b[index]![1]);

/**
 * Geoman's corner markers are for the pointer only (Leaflet makes each a focusable "button"
 * without a name): the list of corners beside the map is their keyboard counterpart, so screen
 * readers and the Tab key skip the markers.
 */
function useQuietMarkers(pane: HTMLElement | undefined) {
  useEffect(() => {
    if (!pane) return;
    const quiet = () => {
      for (const marker of pane.querySelectorAll<HTMLElement>('.marker-icon')) {
        if (marker.getAttribute('aria-hidden') === 'true') continue;
        marker.setAttribute('aria-hidden', 'true');
        marker.setAttribute('tabindex', '-1');
        marker.removeAttribute('role');
      }
    };
    const observer = new MutationObserver(quiet);
    observer.observe(pane, { childList: true });
    quiet();
    return () => observer.disconnect();
  }, [pane]);
}

/** The sector being drawn or edited, on the map it is a child of (Geoman loads with it). */
export function SectorShape({
  corners,
  onCornersChange,
  drawing,
  onDrawn,
  style,
  locale,
  removing = false,
}: SectorShapeProps) {
  const map = useMap();
  const [layer, setLayer] = useState<Polygon | null>(null);
  // Geoman's handlers outlive renders; they call the latest callbacks through these.
  const changed = useRef(onCornersChange);
  const drawn = useRef(onDrawn);
  useEffect(() => {
    changed.current = onCornersChange;
    drawn.current = onDrawn;
  });
  useQuietMarkers(map.getPane('markerPane'));

  // The editable polygon, made once Geoman is there (a layer made before it would lack its editor).
  useEffect(() => {
    let shown = true;
    let made: Polygon | null = null;
    void loadGeoman().then(() => {
      if (!shown) return;
      geomanOf(map).setLang(locale === 'pl' ? 'pl' : 'en');
      made = polygon([], { pmIgnore: false, bubblingMouseEvents: false }).addTo(map);
      made.on('pm:edit', () => changed.current(cornersOfLayer(made!)));
      setLayer(made);
    });
    return () => {
      shown = false;
      made?.pm.disable();
      made?.remove();
    };
  }, [map, locale]);

  useEffect(() => {
    layer?.setStyle(style);
  }, [layer, style]);

  // The corners given (typed in the list, cleared, loaded) go to the polygon; edits come back through pm:edit.
  useEffect(() => {
    if (!layer) return;
    if (!sameCorners(cornersOfLayer(layer), corners)) {
      if (layer.pm.enabled()) layer.pm.disable();
      layer.setLatLngs(corners.map(([longitude, latitude]): LatLngTuple => [latitude, longitude]));
    }
    const editable = !drawing && corners.length >= 3;
    if (editable && !layer.pm.enabled()) layer.pm.enable(editOptions(removing));
    if (!editable && layer.pm.enabled()) layer.pm.disable();
  }, [layer, corners, drawing, removing]);

  // Geoman reads the options when editing starts: a change of mode starts it again.
  useEffect(() => {
    if (!layer?.pm.enabled()) return;
    layer.pm.disable();
    layer.pm.enable(editOptions(removing));
  }, [layer, removing]);

  // Drawing: Geoman's polygon tool, closed by a click on its first corner (docs/product.md#states).
  useEffect(() => {
    if (!layer || !drawing) return;
    const geoman = geomanOf(map);
    geoman.enableDraw('Polygon', {
      snappable: true,
      snapDistance: 12,
      // The hint beside the map says what to do; a tooltip at the pointer means nothing on a touch screen.
      tooltips: false,
      allowSelfIntersection: true,
      continueDrawing: false,
      templineStyle: { ...style, dashArray: undefined },
      hintlineStyle: { ...style, dashArray: '5 5' },
      pathOptions: style,
    });
    const created = (event: { layer: Layer }) => {
      const shape = event.layer as Polygon;
      const drawnCorners = cornersOfLayer(shape);
      shape.remove();
      changed.current(drawnCorners);
      drawn.current();
    };
    map.on('pm:create', created);
    return () => {
      map.off('pm:create', created);
      geoman.disableDraw();
    };
    // The style of the lines being drawn is set when drawing starts; a later change waits for the next shape.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, layer, drawing]);

  return null;
}
