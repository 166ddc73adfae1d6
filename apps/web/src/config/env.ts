/** Build-time settings (Vite's VITE_* variables); docs/configuration.md lists them. */
export const env = {
  apiBase: (import.meta.env.VITE_API_BASE ?? '/api').replace(/\/+$/, ''),
  subscriptionUrl: import.meta.env.VITE_SUBSCRIPTION_URL ?? 'mailto:subscriptions@pivot.example?subject=Pivot',
  mapTileUrl: import.meta.env.VITE_MAP_TILE_URL ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  mapTileAttribution:
    import.meta.env.VITE_MAP_TILE_ATTRIBUTION ??
    '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>',
};
