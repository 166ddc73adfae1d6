/**
 * What the machine page shows below the map, which its first paint does not need: the programs
 * panel, the advice, the season chart's card, the crop seasons (with their form), the farm's records,
 * the reports' download and the weather stations' days. One chunk,
 * fetched once the page has shown the map's data (sprinkler.tsx).
 */
export { ProgramsPanel } from '@/features/programs/components/programs-panel';
export { AdviceCard } from '@/features/advice/components/advice-card';
export { SeasonChartCard } from '@/features/advice/components/season-chart-card';
export { CropSeasonsCard } from '@/features/advice/components/crop-seasons-card';
export { FarmRecordsCard } from '@/features/advice/components/farm-records-card';
export { ReportsDownloadCard } from '@/features/sprinklers/components/reports-download-card';
export { WeatherStationsCard } from '@/features/sprinklers/components/weather-stations-card';
/** The advice's program is stored by the programs feature (with its schema, zod's: not before the map). */
export { useCreateProgram } from '@/features/programs/api/create-program';
