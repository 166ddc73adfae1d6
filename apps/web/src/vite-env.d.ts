/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API answers; '/api' on the same origin by default. */
  readonly VITE_API_BASE?: string;
  /** Where the account page's "extend subscription" link leads. */
  readonly VITE_SUBSCRIPTION_URL?: string;
  /** Map tiles, as a Leaflet URL template ({z}/{x}/{y}); OpenStreetMap by default. */
  readonly VITE_MAP_TILE_URL?: string;
  /** The credit the tile provider asks for, as HTML. */
  readonly VITE_MAP_TILE_ATTRIBUTION?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
