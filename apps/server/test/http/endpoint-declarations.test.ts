import * as contracts from '@pivot/contracts';
import { type AnyEndpoint, ERROR_STATUS, isEndpoint } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EmbeddedBroker } from '../../src/gateway/embedded-broker';
import { createAppOnOwnBroker } from '../support/broker';
import type { TestApp } from '../support/test-app';

type JsonSchema = { type?: string; properties?: Record<string, unknown>; items?: JsonSchema; description?: string };
type Operation = {
  tags?: string[];
  summary?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: JsonSchema }> }>;
};

/** Every declaration the contracts export, in their groups (`webhooksEndpoints.admin.add`, …). */
function declarations(): [string, AnyEndpoint][] {
  const found: [string, AnyEndpoint][] = [];
  const walk = (name: string, value: unknown) => {
    if (isEndpoint(value)) found.push([name, value]);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) walk(`${name}.${key}`, inner);
    }
  };
  for (const [name, group] of Object.entries(contracts)) if (name.endsWith('Endpoints')) walk(name, group);
  return found;
}

/** What the document must keep of a schema: its type, its members' names, its items' type. */
function outline(schema: JsonSchema | undefined) {
  return {
    type: schema?.type,
    properties: Object.keys(schema?.properties ?? {}).sort(),
    items: schema?.items?.type,
  };
}
const outlineOf = (schema: z.ZodType, io: 'input' | 'output') =>
  outline(z.toJSONSchema(schema, { io, target: 'openapi-3.0', unrepresentable: 'any' }) as JsonSchema);

/** '/sprinkler/:id/' as the OpenAPI document writes it: '/api/sprinkler/{id}/'. */
const documentPath = (path: string) => `/api${path.replace(/:(\w+)/g, '{$1}')}`;

describe('the OpenAPI document and the endpoints declared in the contracts', () => {
  let broker: EmbeddedBroker;
  let t: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    // The broker's questions are routes only where the broker asks them (EMQX's HTTP hooks).
    ({ broker, t } = await createAppOnOwnBroker({
      MQTT_DEVICE_AUTH: 'http',
      MQTT_AUTH_HTTP_SECRET: 'a-hook-secret-of-at-least-32-characters',
    }));
    paths = ((await t.client().get('/api/docs/json')).body as { paths: typeof paths }).paths;
  });
  afterAll(async () => {
    await t.close();
    await broker.close();
  });

  const all = declarations();
  const documented = all.filter(([, endpoint]) => !endpoint.hidden);

  it('finds the declarations of every domain', () => {
    const groups = new Set(all.map(([name]) => name.split('.')[0]));
    expect([...groups].sort()).toEqual([
      'adminEndpoints',
      'adviceEndpoints',
      'alertsEndpoints',
      'autopilotEndpoints',
      'backupsEndpoints',
      'brokerEndpoints',
      'dealersEndpoints',
      'devicesEndpoints',
      'farmsEndpoints',
      'logsEndpoints',
      'machineHistoryEndpoints',
      'programsEndpoints',
      'quarantineEndpoints',
      'secondFactorEndpoints',
      'sessionEndpoints',
      'sprinklersEndpoints',
      'usersEndpoints',
      'weatherEndpoints',
      'webhooksEndpoints',
    ]);
    // Each method and path once: two declarations of one call would drift apart.
    const calls = all.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(calls).size).toBe(calls.length);
  });

  it("leaves out of the document the calls of the operator's own tools", () => {
    const hidden = all.filter(([, endpoint]) => endpoint.hidden).map(([name]) => name);
    expect(hidden).toEqual(['backupsEndpoints.local']);
    expect(paths[documentPath(contracts.backupsEndpoints.local.path)]).toBeUndefined();
  });

  it.each(documented)(
    '%s is in the document with its tag, summary, parameters, body, answer and errors',
    (_name, endpoint) => {
      const operation = paths[documentPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      expect(operation).toBeDefined();
      if (!operation) return;
      expect(operation.tags).toEqual([endpoint.tag]);
      expect(operation.summary).toBe(endpoint.summary);

      const named = (place: string) =>
        (operation.parameters ?? [])
          .filter((parameter) => parameter.in === place)
          .map((parameter) => parameter.name)
          .sort();
      expect(named('path')).toEqual([...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort());
      expect(named('query')).toEqual(endpoint.query ? outlineOf(endpoint.query, 'input').properties : []);

      const body = operation.requestBody?.content['application/json']?.schema;
      if (endpoint.body) expect(outline(body)).toEqual(outlineOf(endpoint.body, 'input'));
      else expect(body).toBeUndefined();

      const success = operation.responses[String(endpoint.status ?? 200)];
      expect(success).toBeDefined();
      if (endpoint.answer) {
        // A 204 has no body to describe.
        if (endpoint.status !== 204) {
          expect(outline(success?.content?.['application/json']?.schema)).toEqual(outlineOf(endpoint.answer, 'output'));
        }
      } else {
        expect(Object.keys(success?.content ?? {})).toEqual([endpoint.produces]);
      }

      for (const code of endpoint.errors) {
        const answer = operation.responses[String(ERROR_STATUS[code])];
        expect(answer?.description?.split(', '), code).toContain(code);
        expect(JSON.stringify(answer?.content?.['application/json']?.schema), code).toContain(`"${code}"`);
      }
    },
  );

  it('answers through the declared route as the contract says', async () => {
    const admin = await t.adminClient();
    const response = await admin.get(`/api${contracts.quarantineEndpoints.list.path}`, { query: { pageSize: 5 } });
    expect(response.status).toBe(200);
    expect(contracts.quarantineEndpoints.list.answer.parse(response.body)).toEqual({ count: 0, data: [] });
    const user = await t.signedInUser();
    expect((await user.client.get(`/api${contracts.quarantineEndpoints.list.path}`)).status).toBe(403);
  });
});
