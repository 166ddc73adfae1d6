/**
 * The machine page's cards below the map that its first paint does not need: the advice, the
 * crop seasons (with their form) and the reports' download. One chunk, fetched as the page
 * renders, after the code that paints the map (sprinkler.tsx).
 */
export { AdviceCard } from '@/features/advice/components/advice-card';
export { CropSeasonsCard } from '@/features/advice/components/crop-seasons-card';
export { ReportsDownloadCard } from '@/features/sprinklers/components/reports-download-card';
