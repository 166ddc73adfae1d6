import { AsAppliedQuerySchema, ReportsCsvQuerySchema, machineHistoryEndpoints } from '@pivot/contracts';
import { useState } from 'react';
import { pathOf } from '@/lib/api-client';
import { downloadApiFile } from '@/lib/download-file';

export type DaysRange = { start: string; stop: string };

/** The files of the chosen days the user can download, each named for its button's text. */
export type DataFileKind =
  | 'reportsCsv'
  | 'asAppliedGeoJson'
  | 'asAppliedShapefile'
  | 'asAppliedIsoxml'
  | 'fleetAsAppliedGeoJson'
  | 'fleetAsAppliedShapefile'
  | 'fleetAsAppliedIsoxml';

/** A file to download: where it is asked for, and the name it gets if the server gives none. */
export type DataFile = { kind: DataFileKind; path: string; fallbackName: string; ending: string };

/** One machine's files: its reports, and the water it applied as a map. */
export function machineFiles(id: number): DataFile[] {
  return [
    {
      kind: 'reportsCsv',
      path: pathOf(machineHistoryEndpoints.reportsCsv, { id }),
      fallbackName: 'reports',
      ending: 'csv',
    },
    {
      kind: 'asAppliedGeoJson',
      path: pathOf(machineHistoryEndpoints.asAppliedGeoJson, { id }),
      fallbackName: 'as-applied',
      ending: 'geojson',
    },
    {
      kind: 'asAppliedShapefile',
      path: pathOf(machineHistoryEndpoints.asAppliedShapefile, { id }),
      fallbackName: 'as-applied',
      ending: 'zip',
    },
    {
      kind: 'asAppliedIsoxml',
      path: pathOf(machineHistoryEndpoints.asAppliedIsoxml, { id }),
      fallbackName: 'as-applied',
      ending: 'taskdata.zip',
    },
  ];
}

/** The water every machine the user sees applied, as one map. */
export function fleetFiles(): DataFile[] {
  return [
    {
      kind: 'fleetAsAppliedGeoJson',
      path: pathOf(machineHistoryEndpoints.fleetAsAppliedGeoJson),
      fallbackName: 'as-applied',
      ending: 'geojson',
    },
    {
      kind: 'fleetAsAppliedShapefile',
      path: pathOf(machineHistoryEndpoints.fleetAsAppliedShapefile),
      fallbackName: 'as-applied',
      ending: 'zip',
    },
    {
      kind: 'fleetAsAppliedIsoxml',
      path: pathOf(machineHistoryEndpoints.fleetAsAppliedIsoxml),
      fallbackName: 'as-applied',
      ending: 'taskdata.zip',
    },
  ];
}

/** Downloads the file of the days from `start` to `stop` (dd.mm.yyyy, both included). */
export function downloadDataFile(file: DataFile, range: DaysRange): Promise<boolean> {
  // The reports' and the maps' days are read alike; each has its own schema in the contracts.
  const query = file.kind === 'reportsCsv' ? ReportsCsvQuerySchema : AsAppliedQuerySchema;
  return downloadApiFile({
    path: file.path,
    query: query.parse(range),
    fallbackName: `${file.fallbackName}-${range.start}-${range.stop}.${file.ending}`,
  });
}

/**
 * The download as an action: the kind of file being written and fetched, if any. Its own state
 * rather than TanStack Query's mutation, which nothing else in the app uses and which came with
 * every signed-in page's first code (0.7 KB gzipped).
 */
export function useDownloadDataFile() {
  const [preparing, setPreparing] = useState<DataFileKind | null>(null);
  const download = async (file: DataFile, range: DaysRange) => {
    setPreparing(file.kind);
    try {
      return await downloadDataFile(file, range);
    } finally {
      setPreparing(null);
    }
  };
  return { download, preparing };
}
