import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { machinePermissions, topics } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedBroker } from '../../src/gateway/embedded-broker';
import { createAppOnOwnBroker } from '../support/broker';
import { registerController } from '../support/devices';
import type { TestApp } from '../support/test-app';

const HOOK_SECRET = randomBytes(24).toString('base64url');

/**
 * EMQX 5 cannot run here, so its contract is tested: the requests its HTTP authenticator and
 * authorizer send (docs/operations.md), and the answers it understands.
 */
describe('the HTTP authentication and authorization EMQX asks', () => {
  let broker: EmbeddedBroker;
  let t: TestApp;
  let serverPassword: string;
  let a: string;
  let b: string;
  let secretA: string;

  /** EMQX's REST API as the server calls it: the requests are recorded, and answered as EMQX does. */
  const emqxRequests: { method: string; url: string; authorization: string | undefined }[] = [];
  const emqxApi = http.createServer((request, response) => {
    emqxRequests.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization });
    response.writeHead(204).end();
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => emqxApi.listen(0, '127.0.0.1', resolve));
    const { port } = emqxApi.address() as AddressInfo;
    // A broker for the server's own connection; EMQX would be this broker.
    let server: { password: string };
    ({ broker, server, t } = await createAppOnOwnBroker({
      MQTT_DEVICE_AUTH: 'http',
      MQTT_AUTH_HTTP_SECRET: HOOK_SECRET,
      EMQX_API_URL: `http://127.0.0.1:${port}/`,
      EMQX_API_KEY: 'pivot',
      EMQX_API_SECRET: 'api-secret',
    }));
    serverPassword = server.password;
    a = `EMQX-A-${Date.now().toString(36)}`;
    b = `EMQX-B-${Date.now().toString(36)}`;
    secretA = await registerController(t.app, a);
    await registerController(t.app, b);
  });
  afterAll(async () => {
    await t.close();
    await broker.close();
    emqxApi.close();
  });

  const ask = (path: string, body: unknown, secret = HOOK_SECRET) =>
    t.client().post(`/api/broker/${path}`, body, { csrf: false, headers: { authorization: `Bearer ${secret}` } });
  const authenticate = (body: Record<string, string | undefined>) => ask('authenticate', body);
  const authorize = async (username: string, clientid: string, action: string, topic: string) =>
    ((await ask('authorize', { username, clientid, action, topic })).body as { result: string }).result;

  it('answers only the broker, which knows the shared secret', async () => {
    expect((await ask('authenticate', { clientid: a, username: a, password: secretA }, 'wrong')).status).toBe(401);
    const unsigned = await t
      .client()
      .post('/api/broker/authenticate', { clientid: a, username: a, password: secretA }, { csrf: false });
    expect(unsigned.status).toBe(401);
  });

  it('allows a controller with its secret and its own client id, with its ACL', async () => {
    const answer = await authenticate({ clientid: a, username: a, password: secretA, peerhost: '10.0.0.7' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      result: 'allow',
      is_superuser: false,
      acl: [
        ...machinePermissions(a).publish.map((topic) => ({ permission: 'allow', action: 'publish', topic })),
        { permission: 'allow', action: 'subscribe', topic: `eq ${topics.commands(a)}` },
        { permission: 'deny', action: 'all', topic: '#' },
        { permission: 'deny', action: 'all', topic: '$SYS/#' },
      ],
    });
  });

  it.each([
    ['anonymous', { clientid: 'x' }],
    ['a wrong secret', { clientid: 'A', username: 'A', password: 'guess' }],
    ['another machine’s client id', { clientid: 'B', username: 'A', password: 'A' }],
    ['an unknown ID', { clientid: 'GHOST', username: 'GHOST', password: 'x' }],
    [
      'the server’s username with a wrong password',
      { clientid: 'pivot-server-x', username: 'pivot-server', password: 'x' },
    ],
  ])('denies %s', async (_label, body) => {
    const named = Object.fromEntries(
      Object.entries(body).map(([key, value]) => [
        key,
        value === 'A' ? (key === 'password' ? secretA : a) : value === 'B' ? b : value,
      ]),
    );
    expect((await authenticate(named)).body).toEqual({ result: 'deny', is_superuser: false });
  });

  it('allows the server with its own credentials, any client id', async () => {
    const answer = await authenticate({
      clientid: 'pivot-server-1',
      username: 'pivot-server',
      password: serverPassword,
    });
    expect(answer.body).toEqual({ result: 'allow', is_superuser: false });
  });

  it('authorizes a controller’s own topics only, and the server’s everything', async () => {
    expect(await authorize(a, a, 'publish', topics.telemetry(a))).toBe('allow');
    expect(await authorize(a, a, 'publish', topics.weather(a, 'WS-1'))).toBe('allow');
    expect(await authorize(a, a, 'publish', topics.replies('srv-1', a))).toBe('allow');
    expect(await authorize(a, a, 'subscribe', topics.commands(a))).toBe('allow');
    expect(await authorize(a, a, 'publish', topics.telemetry(b))).toBe('deny');
    expect(await authorize(a, a, 'publish', topics.replies('srv-1', b))).toBe('deny');
    expect(await authorize(a, a, 'publish', topics.commands(a))).toBe('deny');
    expect(await authorize(a, a, 'subscribe', '#')).toBe('deny');
    expect(await authorize(a, a, 'subscribe', '$SYS/#')).toBe('deny');
    expect(await authorize(a, a, 'subscribe', topics.commands(b))).toBe('deny');
    expect(await authorize(a, b, 'publish', topics.telemetry(a))).toBe('deny');
    expect(await authorize('pivot-server', 'pivot-server-1', 'publish', topics.commands(a))).toBe('allow');
    expect(await authorize('pivot-server', 'pivot-server-1', 'subscribe', 'pivot/v1/machines/+/telemetry')).toBe(
      'allow',
    );
  });

  it('asks EMQX to disconnect a controller given a new secret or removed, as it asks the server only at connection', async () => {
    const admin = await t.adminClient();
    expect((await admin.post(`/api/device/${a}/secret/`)).status).toBe(200);
    expect((await admin.delete(`/api/device/${b}/`)).status).toBe(204);
    const authorization = `Basic ${Buffer.from('pivot:api-secret').toString('base64')}`;
    expect(emqxRequests).toEqual([
      { method: 'DELETE', url: `/api/v5/clients/${a}`, authorization },
      { method: 'DELETE', url: `/api/v5/clients/${b}`, authorization },
    ]);
  });
});
