/*
 * What the build gives for `use-sync-external-store/shim` (vite.config.ts): react-i18next asks for
 * that shim, which uses React's own useSyncExternalStore where React has one (18 and later) and
 * otherwise carries a copy of its own, 0.3 KB gzipped on every page that React 19 never runs.
 */
export { useSyncExternalStore } from 'react';
