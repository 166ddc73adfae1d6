/**
 * The machine page's cards below the map that its first paint does not need: the advice, the
 * crop seasons (with their form) and the reports' download. One chunk, fetched once the page
 * has shown the map's data (sprinkler.tsx).
 */
export { AdviceCard } from '@/features/advice/components/advice-card';
export { CropSeasonsCard } from '@/features/advice/components/crop-seasons-card';
export { ReportsDownloadCard } from '@/features/sprinklers/components/reports-download-card';
