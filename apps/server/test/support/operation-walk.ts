import type { ApiClient } from './api-client';
import { buildProgram } from './fixtures';
import type { TestApp } from './test-app';

/**
 * Walking every operation of the OpenAPI document as one user, so that a route added later is
 * walked too: what each call needs to pass validation, so that what answers is the access check.
 */

/** The operations of the app's OpenAPI document, as `METHOD /api/path/{param}/`. */
export async function documentedOperations(t: TestApp): Promise<string[]> {
  const document = (await t.client().get('/api/docs/json')).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The server's administrators' calls: refused to anyone else with 403 forbidden, whatever they name. */
export const ADMINISTRATORS_ONLY = new Set([
  'GET /api/user/list/',
  'POST /api/user/',
  'PATCH /api/user/{id}/',
  'DELETE /api/user/{id}/',
  'DELETE /api/user/{id}/second-factor/',
  'GET /api/sprinkler/list/',
  'POST /api/sprinkler/',
  'PATCH /api/sprinkler/{id}/application-depth/',
  'PATCH /api/sprinkler/{id}/farm/',
  'GET /api/device/',
  'POST /api/device/',
  'POST /api/device/{machineId}/secret/',
  'DELETE /api/device/{machineId}/',
  'GET /api/device/accounts/',
  'POST /api/device/accounts/restore/',
  'GET /api/quarantine/',
  'GET /api/admin/alert-defaults/',
  'PUT /api/admin/alert-defaults/',
  'GET /api/admin/webhooks/',
  'POST /api/admin/webhooks/',
  'PATCH /api/admin/webhooks/{id}/',
  'DELETE /api/admin/webhooks/{id}/',
  'POST /api/admin/webhooks/{id}/test',
  'GET /api/admin/backup/',
  'GET /api/admin/backup/status/',
  'POST /api/farm/',
  'POST /api/farm/{farmId}/members/',
  'POST /api/dealer/',
  'GET /api/dealer/{dealerId}/members/',
  'POST /api/dealer/{dealerId}/members/',
  'DELETE /api/dealer/{dealerId}/members/{userId}/',
]);

/** Answers that are not JSON, read raw: each comes as 200 of its type to one who may read it. */
export const RAW_ANSWERS: Record<string, string> = {
  'GET /api/sprinkler/events': 'text/event-stream',
  'GET /api/sprinkler/{id}/events': 'text/event-stream',
  'GET /api/sprinkler/{id}/reports.csv': 'text/csv',
  'GET /api/sprinkler/{id}/as-applied.geojson': 'application/geo+json',
  'GET /api/sprinkler/{id}/as-applied.zip': 'application/zip',
  'GET /api/sprinkler/{id}/as-applied.taskdata.zip': 'application/zip',
  'GET /api/sprinkler/as-applied.geojson': 'application/geo+json',
  'GET /api/sprinkler/as-applied.zip': 'application/zip',
  'GET /api/sprinkler/as-applied.taskdata.zip': 'application/zip',
};

const today = new Date();
const dotted = `${String(today.getDate()).padStart(2, '0')}.${String(today.getMonth() + 1).padStart(2, '0')}.${today.getFullYear()}`;
const days = { start: dotted, stop: dotted };

const QUERIES: Record<string, Record<string, string>> = {
  'GET /api/sprinkler/{id}/watermap/': days,
  'GET /api/sprinkler/{id}/reports.csv': days,
  'GET /api/sprinkler/{id}/as-applied.geojson': days,
  'GET /api/sprinkler/{id}/as-applied.zip': days,
  'GET /api/sprinkler/{id}/as-applied.taskdata.zip': days,
  'GET /api/sprinkler/as-applied.geojson': days,
  'GET /api/sprinkler/as-applied.zip': days,
  'GET /api/sprinkler/as-applied.taskdata.zip': days,
  'GET /api/weather-station/{id}/days/': days,
};

/** The ids a walk puts into the paths, and the person a body about someone names. */
export type WalkTarget = {
  sprinklerId: number;
  programId: number;
  farmId: number;
  userId: number;
  invitationId: number;
  dealerId: number;
  stationId: string;
};

function bodyOf(operation: string, target: WalkTarget): unknown {
  const bodies: Record<string, unknown> = {
    'POST /api/sprinkler/{id}/motion': { motion: 'stop' },
    'POST /api/sprinkler/{id}/program/': buildProgram('Walked'),
    'PATCH /api/sprinkler/{id}/program/{programId}/': buildProgram('Renamed by a walker'),
    'PATCH /api/sprinkler/{id}/': { name: 'Renamed by a walker' },
    'PATCH /api/sprinkler/{id}/permissions/': { user: target.userId, action: 'revoke' },
    'PATCH /api/sprinkler/{id}/farm/': { farmId: target.farmId },
    'PATCH /api/sprinkler/{id}/application-depth/': { depthAtFullSpeed: 4 },
    'POST /api/sprinkler/{id}/records/': { kind: 'rain_gauge', date: dotted, area: { kind: 'machine' }, mm: 5 },
    'PUT /api/sprinkler/{id}/records/{recordId}/': {
      kind: 'rain_gauge',
      date: dotted,
      area: { kind: 'machine' },
      mm: 6,
    },
    'PUT /api/sprinkler/{id}/crop-seasons/': [
      { name: 'Maize', polygon: null, crop: 'maize-grain', emergence: '01.05.2026', soil: 'loam' },
    ],
    'PUT /api/sprinkler/{id}/area-map/': { type: 'FeatureCollection', features: [] },
    'PUT /api/sprinkler/{id}/autopilot/': { mode: 'auto', rules: {} },
    'POST /api/sprinkler/{id}/prescription/': {
      fileName: 'prescription.geojson',
      content: Buffer.from(JSON.stringify(buildProgram('Prescribed').programData)).toString('base64'),
    },
    'PATCH /api/farm/{farmId}/': { name: 'Renamed by a walker' },
    'PUT /api/farm/{farmId}/second-factor/': { required: true },
    'PUT /api/farm/{farmId}/dealers/{dealerId}/': { level: 'control', machines: 'all' },
    'POST /api/dealer/': { name: 'Dealer made by a walker' },
    'POST /api/dealer/{dealerId}/members/': { email: 'walker@pivot.test' },
    'POST /api/farm/{farmId}/invitations/': { email: 'invited-by-a-walker@pivot.test', role: 'member' },
    'POST /api/farm/': { name: 'Made by a walker' },
    'POST /api/farm/{farmId}/members/': { email: 'walker@pivot.test', role: 'owner' },
    'PATCH /api/farm/{farmId}/members/{userId}/': { role: 'member' },
  };
  return bodies[operation];
}

/** Operations whose bodies the walk gives: a walk checks it reached each of them. */
export const OPERATIONS_WITH_BODIES = [
  'POST /api/sprinkler/{id}/motion',
  'PATCH /api/sprinkler/{id}/permissions/',
  'PUT /api/sprinkler/{id}/autopilot/',
  'PATCH /api/farm/{farmId}/members/{userId}/',
];

export type WalkAnswer = { status: number; code: string | undefined; message: string | undefined; type: string };

/**
 * Calls one operation as `client` on the target's ids; a stream is closed once its answer began,
 * a file is read whole.
 */
export async function callOperation(
  client: ApiClient,
  address: string,
  operation: string,
  target: WalkTarget,
): Promise<WalkAnswer> {
  const [method, path] = operation.split(' ') as [string, string];
  const url = path
    .replace('/weather-station/{id}/', `/weather-station/${target.stationId}/`)
    .replace('{id}', String(target.sprinklerId))
    .replace('{programId}', String(target.programId))
    .replace('{farmId}', String(target.farmId))
    .replace('{userId}', String(target.userId))
    .replace('{invitationId}', String(target.invitationId))
    .replace('{dealerId}', String(target.dealerId))
    // No record is needed: access is decided before the record is looked up.
    .replace('{recordId}', '1')
    .replace('{machineId}', 'NOT-A-MACHINE');
  const query = QUERIES[operation] ?? {};
  if (RAW_ANSWERS[operation]) {
    const controller = new AbortController();
    const search = new URLSearchParams(query);
    const response = await fetch(`${address}${url}${search.size > 0 ? `?${search}` : ''}`, {
      headers: { authorization: `Bearer ${client.access}` },
      signal: controller.signal,
    });
    const type = response.headers.get('content-type') ?? '';
    let body: { code?: string; message?: string } | undefined;
    if (type.includes('text/event-stream')) controller.abort();
    else if (type.includes('application/json')) body = (await response.json()) as typeof body;
    else await response.text();
    return { status: response.status, code: body?.code, message: body?.message, type };
  }
  const response = await client.request(method as 'POST', url, bodyOf(operation, target), {
    query,
    headers: { 'accept-language': 'en' },
  });
  const body = response.body as { code?: string; message?: string } | undefined;
  return {
    status: response.status,
    code: body?.code,
    message: body?.message,
    type: String(response.headers['content-type'] ?? ''),
  };
}
