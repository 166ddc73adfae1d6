import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccess } from '../../src/modules/access/access.repository';
import { sessions } from '../../src/modules/users/auth.table';
import { MAX_STREAMS_PER_USER, STREAMS_RECHECK_MS } from '../../src/modules/users/open-streams';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type OpenedStream, openStream } from '../support/open-stream';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

/** A change made through this instance reaches its streams at once; this allows for the test machine's pace. */
const AT_ONCE_MS = 1500;
/** A change made elsewhere (another instance, the database) reaches them at the next check. */
const NEXT_CHECK_MS = STREAMS_RECHECK_MS + 1500;

describe('live streams end once no longer allowed', () => {
  let t: TestApp;
  let admin: ApiClient;
  let address: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  /** A farmer with one granted machine and their three kinds of stream open. */
  async function farmerWatching() {
    const machine = await buildSprinkler(t);
    const farmer = await t.signedInUser();
    await grant(t, machine.id, farmer.user.id);
    const streams = {
      machine: await openStream(address, farmer.client, `/api/sprinkler/${machine.id}/events`),
      list: await openStream(address, farmer.client, '/api/sprinkler/events'),
      alerts: await openStream(address, farmer.client, '/api/alerts/events'),
    };
    return { machine, farmer, streams, all: Object.values(streams) };
  }

  it('a revoke ends the machine stream at once, and the others stay', async () => {
    const { machine, farmer, streams, all } = await farmerWatching();
    try {
      const revoked = await admin.patch(`/api/sprinkler/${machine.id}/permissions/`, {
        user: farmer.user.id,
        action: 'revoke',
      });
      expect(revoked.status).toBe(200);
      expect(await streams.machine.ends(AT_ONCE_MS)).toBeLessThan(AT_ONCE_MS);
      expect(await streams.list.stillOpenAfter(STREAMS_RECHECK_MS + 500)).toBe(true);
      expect(await streams.alerts.stillOpenAfter(0)).toBe(true);
      // Opening it again is refused as for any machine not theirs.
      expect((await farmer.client.get(`/api/sprinkler/${machine.id}/events`)).status).toBe(404);
    } finally {
      for (const stream of all) stream.close();
    }
  });

  it('a level change ends the machine stream at once, so the page reads the machine again; the others stay', async () => {
    const { machine, farmer, streams, all } = await farmerWatching();
    try {
      const changed = await admin.patch(`/api/sprinkler/${machine.id}/permissions/`, {
        user: farmer.user.id,
        action: 'grant',
        level: 'watch',
      });
      expect(changed.status).toBe(200);
      expect(await streams.machine.ends(AT_ONCE_MS)).toBeLessThan(AT_ONCE_MS);
      expect(await streams.list.stillOpenAfter(STREAMS_RECHECK_MS + 500)).toBe(true);
      expect(await streams.alerts.stillOpenAfter(0)).toBe(true);
      // Watching, the machine's stream opens again and stays.
      const again = await openStream(address, farmer.client, `/api/sprinkler/${machine.id}/events`);
      try {
        expect(await again.stillOpenAfter(STREAMS_RECHECK_MS + 500)).toBe(true);
      } finally {
        again.close();
      }
    } finally {
      for (const stream of all) stream.close();
    }
  });

  it('a revoke made elsewhere (straight in the database) ends the machine stream within one check', async () => {
    const { machine, farmer, streams, all } = await farmerWatching();
    try {
      await revokeAccess(t.database.db, machine.id, farmer.user.id);
      expect(await streams.machine.ends(NEXT_CHECK_MS)).toBeLessThan(NEXT_CHECK_MS);
    } finally {
      for (const stream of all) stream.close();
    }
  });

  it('signing out ends every stream of the session at once', async () => {
    const { farmer, all } = await farmerWatching();
    expect((await farmer.client.post('/api/user/logout/')).status).toBe(200);
    for (const stream of all) expect(await stream.ends(AT_ONCE_MS)).toBeLessThan(AT_ONCE_MS);
  });

  it('deleting the user ends all their streams at once', async () => {
    const { farmer, all } = await farmerWatching();
    expect((await admin.delete(`/api/user/${farmer.user.id}/`)).status).toBe(200);
    for (const stream of all) expect(await stream.ends(AT_ONCE_MS)).toBeLessThan(AT_ONCE_MS);
  });

  it("changing the password ends the other sessions' streams, and keeps this session's", async () => {
    const { farmer, all } = await farmerWatching();
    const sameUserHere = t.client();
    await sameUserHere.login(farmer.user.email, USER_PASSWORD);
    const kept = await openStream(address, sameUserHere, '/api/alerts/events');
    try {
      const changed = await sameUserHere.post('/api/user/password/', {
        oldPassword: USER_PASSWORD,
        newPassword: 'Other-Password-2',
        repeatNewPassword: 'Other-Password-2',
      });
      expect(changed.status).toBe(200);
      for (const stream of all) expect(await stream.ends(AT_ONCE_MS)).toBeLessThan(AT_ONCE_MS);
      expect(await kept.stillOpenAfter(STREAMS_RECHECK_MS + 500)).toBe(true);
    } finally {
      kept.close();
    }
  });

  it('a session that expires (or is revoked by another instance) ends its streams within one check', async () => {
    const { farmer, all } = await farmerWatching();
    await t.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.userId, farmer.user.id));
    for (const stream of all) expect(await stream.ends(NEXT_CHECK_MS)).toBeLessThan(NEXT_CHECK_MS);
  });

  it("an administrator's streams end once they are no longer one and hold no grant", async () => {
    const machine = await buildSprinkler(t);
    const formerAdmin = await t.signedInUser({ admin: true });
    const list = await openStream(address, formerAdmin.client, '/api/sprinkler/events');
    const watched = await openStream(address, formerAdmin.client, `/api/sprinkler/${machine.id}/events`);
    expect((await admin.patch(`/api/user/${formerAdmin.user.id}/`, { admin: false })).status).toBe(200);
    expect(await list.ends(AT_ONCE_MS)).toBeLessThan(AT_ONCE_MS);
    expect(await watched.ends(AT_ONCE_MS)).toBeLessThan(AT_ONCE_MS);
  });

  it(`refuses a user's stream beyond ${MAX_STREAMS_PER_USER} open at once, in the page's language`, async () => {
    const machine = await buildSprinkler(t);
    const farmer = await t.signedInUser();
    await grant(t, machine.id, farmer.user.id);
    const open: OpenedStream[] = [];
    try {
      for (let index = 0; index < MAX_STREAMS_PER_USER; index += 1) {
        const path = ['/api/sprinkler/events', '/api/alerts/events', `/api/sprinkler/${machine.id}/events`][index % 3]!;
        open.push(await openStream(address, farmer.client, path));
      }
      for (const [path, language, words] of [
        ['/api/sprinkler/events', 'en', /Too many live views/],
        ['/api/alerts/events', 'pl', /Zbyt wiele widoków/],
        [`/api/sprinkler/${machine.id}/events`, 'en', /Too many live views/],
      ] as const) {
        const refused = await farmer.client.get(path, { headers: { 'accept-language': language } });
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ code: 'too_many_streams', message: expect.stringMatching(words) });
      }
      // Another user is not held back by this one's streams.
      const other = await t.signedInUser();
      const theirs = await openStream(address, other.client, '/api/alerts/events');
      theirs.close();
      // One closed makes room for one more.
      open.pop()!.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      open.push(await openStream(address, farmer.client, '/api/alerts/events'));
    } finally {
      for (const stream of open) stream.close();
    }
  });
});

describe('on two instances over one database', () => {
  let first: TestApp;
  let second: TestApp;
  let secondAddress: string;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({}, { database: first.database });
    secondAddress = await second.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("a revoke and a sign-out made through one instance end the other's streams within one check", async () => {
    const machine = await buildSprinkler(first);
    const farmer = await first.signedInUser();
    await grant(first, machine.id, farmer.user.id);
    const admin = await first.adminClient();
    // The same session, its streams open on the second instance.
    const onSecond = second.client();
    onSecond.access = farmer.client.access;
    const watched = await openStream(secondAddress, onSecond, `/api/sprinkler/${machine.id}/events`);
    const alerts = await openStream(secondAddress, onSecond, '/api/alerts/events');

    await admin.patch(`/api/sprinkler/${machine.id}/permissions/`, { user: farmer.user.id, action: 'revoke' });
    expect(await watched.ends(NEXT_CHECK_MS)).toBeLessThan(NEXT_CHECK_MS);
    expect(await alerts.stillOpenAfter(0)).toBe(true);

    await farmer.client.post('/api/user/logout/');
    expect(await alerts.ends(NEXT_CHECK_MS)).toBeLessThan(NEXT_CHECK_MS);
  });
});
