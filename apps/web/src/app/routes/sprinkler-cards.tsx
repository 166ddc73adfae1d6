/**
 * What the machine page shows below the map, which its first paint does not need: the programs
 * panel, the advice, the season chart's card, the crop seasons (with their form), the farm's records,
 * the autopilot, the data's download and the weather stations' days. One chunk,
 * fetched once the page has shown the map's data (sprinkler.tsx).
 */
import type { ProgramBody, SprinklerDetail } from '@pivot/contracts';
import { memo } from 'react';
import { AdviceCard } from '@/features/advice/components/advice-card';
import { CropSeasonsCard } from '@/features/advice/components/crop-seasons-card';
import { FarmRecordsCard } from '@/features/advice/components/farm-records-card';
import { SeasonChartCard as SeasonChart } from '@/features/advice/components/season-chart-card';
import { AutopilotCard } from '@/features/autopilot/components/autopilot-card';
import { useCreateProgram } from '@/features/programs/api/create-program';
import { ProgramsPanel as Programs } from '@/features/programs/components/programs-panel';
import { DataDownloadCard as DataDownload } from '@/features/sprinklers/components/data-download-card';
import { WeatherStationsCard as WeatherStations } from '@/features/sprinklers/components/weather-stations-card';
import { sameCardProps } from './same-card-props';

export const ProgramsPanel = memo(Programs, sameCardProps);
export const SeasonChartCard = memo(SeasonChart);
export const DataDownloadCard = memo(DataDownload);
export const WeatherStationsCard = memo(WeatherStations);

/**
 * The advice, the crop seasons, the farm's records and the autopilot (its texts are in the
 * advice's part of the catalogue), in the column beside the programs. A
 * program the advice builds is stored by the programs feature (with its schema, zod's: not before
 * the map) and opened in its editor.
 */
export const AdviceCards = memo(function AdviceCards({
  sprinkler,
  onProgramCreated,
}: {
  sprinkler: SprinklerDetail;
  onProgramCreated: (programId: number) => void;
}) {
  const createProgram = useCreateProgram();
  const createProgramFromAdvice = async (body: ProgramBody) => {
    const detail = await createProgram.run(sprinkler.id, body);
    const created = detail && detail.programs.find((program) => program.name === body.name);
    if (created) onProgramCreated(created.id);
    return Boolean(created);
  };
  return (
    <>
      <AdviceCard sprinkler={sprinkler} onCreateProgram={createProgramFromAdvice} />
      <CropSeasonsCard sprinkler={sprinkler} />
      <FarmRecordsCard sprinkler={sprinkler} />
      <AutopilotCard sprinkler={sprinkler} />
    </>
  );
}, sameCardProps);
