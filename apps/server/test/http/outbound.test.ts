import type dns from 'node:dns';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundGuard, OutboundRefusal, parseAllowedHosts } from '../../src/http/outbound';
import { forbiddenKind } from '../../src/http/outbound-addresses';
import { startListener } from '../support/listener';

/** A resolver answering from a table, as DNS would; a name not in it is not found. */
function resolverOf(answers: (name: string) => string[]): typeof dns.lookup {
  const lookup = (
    hostname: string,
    _options: dns.LookupAllOptions,
    callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
  ) => {
    const addresses = answers(hostname);
    if (addresses.length === 0) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return lookup as unknown as typeof dns.lookup;
}

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof OutboundRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('addresses outbound requests never reach', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.251', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a00:1', 'private'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'link-local'],
    ['2001:470:1f0b::5efe:a00:1', 'private'],
    ['2607:f8b0::200:5efe:192.168.0.1', 'private'],
    ['2607:f8b0::5efe:127.0.0.1', 'loopback'],
    ['64:ff9b:1::a00:1', 'private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(forbiddenKind(address)).toBe(kind);
  });

  it.each([
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:1.1.1.1',
    '2002:101:101::1',
    '::ffff:0:101:101',
    '2607:f8b0::5efe:101:101',
  ])('%s is public', (address) => {
    expect(forbiddenKind(address)).toBeUndefined();
  });
});

describe('the outbound guard', () => {
  let listener: Awaited<ReturnType<typeof startListener>>;
  let slow: Awaited<ReturnType<typeof startListener>>;
  let redirecting: Awaited<ReturnType<typeof startListener>>;
  let endless: Awaited<ReturnType<typeof startListener>>;
  const publicGuard = new OutboundGuard({
    allowedHosts: [],
    resolve: resolverOf(
      (name) =>
        (
          ({
            'hooks.example.com': ['93.184.216.34'],
            localhost: ['127.0.0.1', '::1'],
            'inside.example.com': ['10.0.0.1'],
            'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
          }) as Record<string, string[]>
        )[name] ?? [],
    ),
  });

  beforeAll(async () => {
    listener = await startListener();
    slow = await startListener(() => undefined);
    redirecting = await startListener((_, response) =>
      response.writeHead(302, { location: `${listener.origin}/redirected` }).end(),
    );
    endless = await startListener((_, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const write = () => {
        if (!response.destroyed && response.write(chunk)) setImmediate(write);
        else response.once('drain', write);
      };
      write();
    });
  });
  afterAll(async () => {
    await Promise.all([listener.close(), slow.close(), redirecting.close(), endless.close()]);
  });

  it.each([
    ['https://127.0.0.1/hook', 'outbound_address_refused'],
    ['https://10.0.0.1/hook', 'outbound_address_refused'],
    ['https://169.254.169.254/latest/meta-data/', 'outbound_address_refused'],
    ['https://[::1]/hook', 'outbound_address_refused'],
    ['https://2130706433/hook', 'outbound_address_refused'],
    ['https://0x7f.1/hook', 'outbound_address_refused'],
    ['https://[::ffff:127.0.0.1]/hook', 'outbound_address_refused'],
    ['https://[64:ff9b::7f00:1]/hook', 'outbound_address_refused'],
    ['https://[::ffff:0:7f00:1]/hook', 'outbound_address_refused'],
    ['https://[2001:470::5efe:a00:1]/hook', 'outbound_address_refused'],
    ['https://[fe80::1]/hook', 'outbound_address_refused'],
    ['https://0.0.0.0/hook', 'outbound_address_refused'],
    ['https://localhost/hook', 'outbound_address_refused'],
    ['https://inside.example.com/hook', 'outbound_address_refused'],
    ['https://mixed.example.com/hook', 'outbound_address_refused'],
    ['http://hooks.example.com/hook', 'outbound_https_required'],
    ['ftp://hooks.example.com/hook', 'outbound_https_required'],
    ['https://nowhere.example.com/hook', 'outbound_host_not_found'],
  ])('refuses %s when it is saved', async (address, code) => {
    expect((await refusalOf(publicGuard.check(address))).code).toBe(code);
  });

  it('takes a public https address', async () => {
    expect((await publicGuard.check('https://hooks.example.com/hook?x=1')).href).toBe(
      'https://hooks.example.com/hook?x=1',
    );
  });

  it('refuses at send time a name that resolves to loopback only then (no DNS-rebinding gap)', async () => {
    let asked = 0;
    const rebinding = new OutboundGuard({
      allowedHosts: [],
      resolve: resolverOf((name) =>
        name === 'rebind.example.com' ? [asked++ === 0 ? '93.184.216.34' : '127.0.0.1'] : [],
      ),
    });
    await rebinding.check(`https://rebind.example.com:${listener.port}/hook`);
    // Allowed hosts may use http; this one is not allowed, so the same check runs on the connection.
    const outcome = await rebinding.post(`https://rebind.example.com:${listener.port}/hook`, '{}', {});
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.ok === false && outcome.error).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(asked).toBe(2);
    expect(listener.received.filter((request) => request.path === '/hook')).toHaveLength(0);
  });

  it('refuses at send time every literal forbidden address, before connecting', async () => {
    for (const address of ['https://127.0.0.1/', 'https://[::1]/', 'https://169.254.169.254/']) {
      const outcome = await publicGuard.post(address, '{}', {});
      expect(outcome.ok).toBe(false);
      expect(outcome.ok === false && outcome.refusal?.code).toBe('outbound_address_refused');
    }
  });

  it('checks every connection of the agent it gives libraries (web-push), names and addresses alike', async () => {
    // The system's own resolver: it reads 2130706433 as 127.0.0.1, as web-push's URL parsing leaves it.
    const guard = new OutboundGuard({ allowedHosts: [] });
    const viaAgent = (host: string) =>
      new Promise<Error>((resolve, reject) => {
        const request = https.request({ host, port: listener.port, method: 'POST', agent: guard.httpsAgent() });
        request.on('error', resolve);
        request.on('response', () => reject(new Error('connected')));
        request.end();
      });
    for (const host of ['127.0.0.1', '::1', 'localhost', '2130706433']) {
      const error = await viaAgent(host);
      expect(error).toBeInstanceOf(OutboundRefusal);
    }
  });

  it('sends to a host the operator allowed, over http too, by address or by name', async () => {
    const allowing = new OutboundGuard({ allowedHosts: parseAllowedHosts(`127.0.0.1:${listener.port},localhost`) });
    expect((await allowing.check(`http://127.0.0.1:${listener.port}/allowed`)).port).toBe(String(listener.port));
    expect(await allowing.post(`http://127.0.0.1:${listener.port}/allowed`, '{"a":1}', { 'x-test': 'yes' })).toEqual({
      ok: true,
      status: 200,
    });
    expect(await allowing.post(`http://localhost:${listener.port}/allowed-by-name`, '{}', {})).toEqual({
      ok: true,
      status: 200,
    });
    const received = listener.received.find((request) => request.path === '/allowed');
    expect(received?.body).toBe('{"a":1}');
    expect(received?.headers['x-test']).toBe('yes');
    expect(received?.headers['content-type']).toBe('application/json');
    // Another port of an allowed address is not allowed.
    expect((await refusalOf(allowing.check(`https://127.0.0.1:${listener.port + 1}/`))).code).toBe(
      'outbound_address_refused',
    );
  });

  it('does not follow a redirect: a 3xx is a failure with its status', async () => {
    const allowing = new OutboundGuard({ allowedHosts: parseAllowedHosts('127.0.0.1') });
    const outcome = await allowing.post(`${redirecting.origin}/hook`, '{}', {});
    expect(outcome).toMatchObject({ ok: false, status: 302 });
    expect(listener.received.filter((request) => request.path === '/redirected')).toHaveLength(0);
  });

  it('gives up on a receiver that never answers', async () => {
    const allowing = new OutboundGuard({ allowedHosts: parseAllowedHosts('127.0.0.1') });
    const started = Date.now();
    const outcome = await allowing.post(`${slow.origin}/hook`, '{}', {}, { timeoutMs: 300 });
    expect(outcome).toEqual({ ok: false, status: null, error: 'no answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads at most 64 KiB of an answer', async () => {
    const allowing = new OutboundGuard({ allowedHosts: parseAllowedHosts('127.0.0.1') });
    const started = Date.now();
    expect(await allowing.post(`${endless.origin}/hook`, '{}', {}, { timeoutMs: 3000 })).toEqual({
      ok: true,
      status: 200,
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads OUTBOUND_ALLOWED_HOSTS as a URL reads hosts', () => {
    expect(parseAllowedHosts(' 2130706433:8443, [::1], hooks.local ')).toEqual([
      { hostname: '127.0.0.1', port: 8443 },
      { hostname: '[::1]', port: null },
      { hostname: 'hooks.local', port: null },
    ]);
    expect(() => parseAllowedHosts('hooks.local/path')).toThrow();
  });
});
