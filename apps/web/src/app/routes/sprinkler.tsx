import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import { waterBalanceQueryOptions } from '@/features/advice/api/get-water-balance';
import { useSprinkler } from '@/features/sprinklers/api/get-sprinkler';
import { useWatermap } from '@/features/sprinklers/api/get-watermap';
import { ConnectionLostLine } from '@/features/sprinklers/components/connection-lost-line';
import { MachineFieldView } from '@/features/sprinklers/components/machine-field-view';
import { MotionControls } from '@/features/sprinklers/components/motion-controls';
import { StatusPanel } from '@/features/sprinklers/components/status-panel';
import { ViewOnlyNotice } from '@/features/sprinklers/components/view-only-notice';
import { useHistoryRange } from '@/features/sprinklers/hooks/use-history-range';
import { useMapLayers } from '@/features/sprinklers/hooks/use-map-layers';
import { useLiveSprinkler } from '@/features/sprinklers/hooks/use-live-sprinkler';
import { loadCataloguePart } from '@/i18n/i18n';
import { useConnection } from '@/lib/connection';
import { afterFirstScreen } from '@/lib/after-first-screen';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { RainLoader } from '@/ui/global-loader';
import { laterPart } from '@/app/later-part';
import { Page } from '@/ui/page';
import type * as SprinklerCards from './sprinkler-cards';

let cards: Promise<typeof SprinklerCards> | undefined;
/**
 * The programs panel and the cards below the map, with their texts, come once the map's data has
 * been shown (lib/after-first-screen.ts). Fetched again after a failure: the connection may go
 * before they came, and each then says so in its place (ui/later-part.tsx).
 */
const loadCards = () =>
  (cards ??= afterFirstScreen()
    .then(async () => {
      const [loaded] = await Promise.all([
        import('./sprinkler-cards'),
        loadCataloguePart('programs'),
        loadCataloguePart('advice'),
        // The weather stations' days and the data's download.
        loadCataloguePart('machineCards'),
        // The crop seasons' and the farm records' cards name a refused import or record.
        loadCataloguePart('errorCodes'),
      ]);
      return loaded;
    })
    .catch((error: unknown) => {
      cards = undefined;
      throw error;
    }));
const ProgramsPanel = laterPart(async () => (await loadCards()).ProgramsPanel);
/** The advice, the crop seasons and the farm's records, in the column beside the programs. */
const AdviceCards = laterPart(async () => (await loadCards()).AdviceCards);
const SeasonChartCard = laterPart(async () => (await loadCards()).SeasonChartCard);
const DataDownloadCard = laterPart(async () => (await loadCards()).DataDownloadCard);
/** The weather stations' days, below the season chart (the stations' facts are on the map's markers). */
const WeatherStationsCard = laterPart(async () => (await loadCards()).WeatherStationsCard);

/**
 * One machine (docs/product.md#screens): its field with the arm moving live, its status, motion and programs. A
 * user who may only watch it sees everything but the controls, and one line saying why.
 */
export function SprinklerRoute() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { data: sprinkler, isPending } = useSprinkler(id);
  // Both are known from the address: the watermap is asked for beside the detail, not after it.
  const history = useHistoryRange();
  const watermap = useWatermap(id, history.query);
  const live = useLiveSprinkler(id, Boolean(sprinkler));
  const layers = useMapLayers(history);
  // The advice card's balance (one query for both) colours the map's Soil water layer, which
  // starts hidden: not asked for beside the map's first reads, nor drawn into its first paint.
  const { data: waterBalance } = useQuery({
    ...waterBalanceQueryOptions(id),
    enabled: Boolean(sprinkler) && layers.shown.has('soilWater'),
  });
  const [selectedProgramId, setSelectedProgramId] = useState<number | null>(null);
  const connected = useConnection().online;

  // A machine not yet read when the connection went: its read waits for the connection, and says so.
  if (isPending && !connected) {
    return (
      <Page title={t('sprinklers.detail.title')}>
        <ConnectionLostLine />
        <p className="text-ink-muted">{t('sprinklers.connection.notLoaded')}</p>
      </Page>
    );
  }
  if (isPending) return <RainLoader />;
  if (!sprinkler) {
    return (
      <Page title={t('sprinklers.detail.title')}>
        <Card className="flex flex-col items-start gap-4">
          <p>{t('sprinklers.detail.notFound')}</p>
          <ButtonLink to={paths.sprinklers.link()} variant="secondary">
            {t('sprinklers.detail.backToList')}
          </ButtonLink>
        </Card>
      </Page>
    );
  }

  const selected = sprinkler.programs.find((program) => program.id === selectedProgramId);
  const controls = sprinkler.level === 'control';
  return (
    <Page
      title={sprinkler.name}
      description={t('sprinklers.detail.description', { id: sprinkler.internalId })}
      width="full"
    >
      <ConnectionLostLine controls={controls} />
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,1fr)_340px]">
        <MachineFieldView
          sprinkler={sprinkler}
          program={selected?.programData ?? sprinkler.currentProgramData}
          history={history}
          layers={layers}
          watermap={watermap}
          soilWater={waterBalance === false ? null : waterBalance}
        />
        {/* On a phone the status and the motion buttons come first, above the map. */}
        <div className="order-first flex flex-col gap-4 lg:order-none">
          {!controls && <ViewOnlyNotice message={t('sprinklers.detail.viewOnly')} />}
          <StatusPanel sprinkler={sprinkler} live={live} />
          {controls && <MotionControls sprinklerId={sprinkler.id} name={sprinkler.name} machine={sprinkler} />}
        </div>
      </div>
      {/*
        The programs, the season chart and the weather take the wide column, where a season's days
        and the weather table have room; the advice and the farm's records the narrow one beside
        them. On a phone, one column: the programs, what the advice says, then the chart.
      */}
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,1fr)_340px] lg:grid-rows-[auto_auto_1fr]">
        <ProgramsPanel
          sprinkler={sprinkler}
          selectedProgramId={selectedProgramId}
          onSelectProgram={setSelectedProgramId}
        />
        <div className="flex flex-col gap-4 lg:col-start-2 lg:row-span-3 lg:row-start-1">
          <AdviceCards sprinkler={sprinkler} onProgramCreated={setSelectedProgramId} />
          <DataDownloadCard sprinklerId={sprinkler.id} />
        </div>
        <div className="lg:col-start-1">
          <SeasonChartCard sprinklerId={sprinkler.id} />
        </div>
        <div className="lg:col-start-1">
          <WeatherStationsCard stations={sprinkler.weather_stations} />
        </div>
      </div>
    </Page>
  );
}
