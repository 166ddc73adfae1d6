import {
  type AreaMapFile,
  type ErrorCode,
  type SprinklerDetail,
  type ValidationIssue,
  adviceEndpoints,
} from '@pivot/contracts';
import { callEndpoint, requestEndpoint } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
import { queryClient, readAgain } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';
import { readIssues } from '@/lib/validation-issues';
import { cropSeasonsKey } from './get-crop-seasons';
import { waterBalanceKey } from './get-water-balance';

/** The refusals the card lists with their places in the file rather than as a toast. */
const LISTED = new Set<ErrorCode>([
  'invalid_crop_seasons',
  'crop_area_not_found',
  'validation_error',
  'invalid_geometry',
]);

/** The file's name: the machine's ID, which a file system takes as it is. */
export function areaMapFileName(sprinkler: Pick<SprinklerDetail, 'internalId'>): string {
  return `${sprinkler.internalId.replace(/[^\w.-]+/g, '-')}-area-map.geojson`;
}

/** Saves the machine's area map with its crop seasons as a GeoJSON file (docs/advice.md, "The area map as a file"). */
export async function exportAreaMap(sprinkler: Pick<SprinklerDetail, 'id' | 'internalId'>): Promise<boolean> {
  const file = await callEndpoint(adviceEndpoints.areaMap, { params: { id: sprinkler.id } });
  if (!file) return false;
  downloadFile(areaMapFileName(sprinkler), JSON.stringify(file, null, 2), 'application/geo+json');
  return true;
}

export type AreaMapImportOutcome =
  { ok: true } | { ok: false; unreadable: true } | { ok: false; code: ErrorCode; issues: ValidationIssue[] };

/**
 * Imports a GeoJSON file as the machine's area map with the seasons it carries. A file that is
 * not JSON is told of here; the server's refusals of its contents come back with their places.
 */
export async function importAreaMap(sprinklerId: number, text: string): Promise<AreaMapImportOutcome | false> {
  // Whatever the file holds goes as it is: the server's refusals name the places in it.
  let body: AreaMapFile;
  try {
    body = JSON.parse(text) as AreaMapFile;
  } catch {
    return { ok: false, unreadable: true };
  }
  const result = await requestEndpoint(adviceEndpoints.importAreaMap, {
    params: { id: sprinklerId },
    body,
    handlesFailure: (failure) => failure.error !== null && LISTED.has(failure.error.code),
  });
  if (result.ok) {
    queryClient.setQueryData(cropSeasonsKey(sprinklerId), result.data.seasons);
    queryClient.setQueryData<SprinklerDetail>(
      sprinklerKeys.detail(sprinklerId),
      (detail) => detail && { ...detail, areaMap: result.data.areaMap },
    );
    void readAgain({ queryKey: waterBalanceKey(sprinklerId) });
    return { ok: true };
  }
  const { error, body: answer } = result.failure;
  if (!error || !LISTED.has(error.code)) return false;
  return { ok: false, code: error.code, issues: readIssues(answer) };
}

export function useImportAreaMap() {
  return useAction(importAreaMap);
}
