import {
  LogListResponseSchema,
  SprinklerDetailSchema,
  SprinklerListResponseSchema,
  UserSchema,
} from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSession } from '../support/http-session';
import { waitForMail } from '../support/outbox';
import { type ServerProcess, startServer } from '../support/server-process';

describe('a first run of the product on its embedded defaults', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it('serves health, and the printed administrator can bring a new user all the way in', async () => {
    const admin = new HttpSession(server.baseUrl);
    expect((await admin.call('GET', '/api/health')).status).toBe(200);

    const printed = /email:\s+(\S+)\s+password:\s+(\S+)/.exec(server.output());
    expect(printed, server.output()).not.toBeNull();
    const [, adminEmail, adminPassword] = printed!;
    await admin.login(adminEmail!, adminPassword!);

    const refreshed = await admin.call('POST', '/api/user/refresh-token/');
    expect(refreshed.status).toBe(200);
    admin.access = (refreshed.body as { access: string }).access;

    const created = await admin.call('POST', '/api/user/', {
      first_name: 'Tomasz',
      last_name: 'Rolnik',
      email: 'tomasz@farm.pl',
    });
    expect(created.status).toBe(201);
    const userId = UserSchema.parse(created.body).id;

    const mail = await waitForMail(server.dataDir, 'tomasz@farm.pl');
    const link = new RegExp(`/activation/${userId}/([A-Za-z0-9_-]+)`).exec(mail);
    expect(link, mail).not.toBeNull();

    const farmer = new HttpSession(server.baseUrl);
    const firstPassword = 'Corn-field-2026!';
    const activated = await farmer.call('POST', '/api/user/set-password/', {
      uid: userId,
      token: link![1],
      newPassword: firstPassword,
      repeatNewPassword: firstPassword,
    });
    expect(activated.status).toBe(200);
    await farmer.login('tomasz@farm.pl', firstPassword);

    const secondPassword = 'Wheat-field-2027?';
    const changed = await farmer.call('POST', '/api/user/password/', {
      oldPassword: firstPassword,
      newPassword: secondPassword,
      repeatNewPassword: secondPassword,
    });
    expect(changed.status).toBe(200);

    const farmerLog = LogListResponseSchema.parse((await farmer.call('GET', '/api/logs/')).body);
    expect(farmerLog.data.map((entry) => entry.eventType)).toEqual([
      'user_password_change',
      'user_activated',
      'user_created',
    ]);
    const adminLog = LogListResponseSchema.parse((await admin.call('GET', '/api/logs/')).body);
    expect(adminLog.count).toBeGreaterThanOrEqual(3);
  });

  it('comes with a simulated fleet whose machines move, granted to the printed demo user', async () => {
    const printed = /Demo user created[^]*?email:\s+(\S+)\s+password:\s+(\S+)/.exec(server.output());
    expect(printed, server.output()).not.toBeNull();
    const demo = new HttpSession(server.baseUrl);
    await demo.login(printed![1]!, printed![2]!);
    const machines = SprinklerListResponseSchema.parse((await demo.call('GET', '/api/sprinkler/')).body);
    expect(machines.length).toBeGreaterThanOrEqual(3);
    const detailOf = async (id: number) =>
      SprinklerDetailSchema.parse((await demo.call('GET', `/api/sprinkler/${id}/`)).body);
    const moving = [];
    for (const machine of machines) {
      const detail = await detailOf(machine.id);
      expect(detail.areaMap).toMatchObject({ type: 'FeatureCollection' });
      expect(detail.programs.length).toBeGreaterThan(0);
      if (detail.status === 'front' || detail.status === 'back') moving.push(detail);
    }
    expect(moving.length).toBeGreaterThan(0);
    const [first] = moving;
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect((await detailOf(first!.id)).angle).not.toBe(first!.angle);
  });
});
