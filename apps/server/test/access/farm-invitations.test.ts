import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { farmInvitations } from '../../src/modules/farms/farms.table';
import type { ApiClient } from '../support/api-client';
import { USER_PASSWORD, linkIn, useTestApp } from '../support/test-app';

const NEW_PASSWORD = 'Field-Water-42!';

/** A farm's managers invite people by e-mail; the mailed link works once, for 7 days (docs/roles.md). */
describe('invitations to a farm', () => {
  const t = useTestApp({}, { signInAdmin: true });

  /** A farm with its owner signed in. */
  async function farmWithOwner(name: string) {
    const farm = (await t.admin.post('/api/farm/', { name })).body as { id: number };
    const owner = await t.signedInUser();
    await t.admin.post(`/api/farm/${farm.id}/members/`, { email: owner.user.email, role: 'owner' });
    return { farm, owner };
  }

  async function invite(client: ApiClient, farmId: number, email: string, role = 'member') {
    return client.post(`/api/farm/${farmId}/invitations/`, { email, role }, { headers: { 'accept-language': 'en' } });
  }

  /** The link of the newest invitation mailed to the address. */
  async function mailedLink(email: string) {
    const mails = (await t.outboxMails()).filter((mail) => mail.includes(`To: ${email}`));
    const mail = mails.at(-1);
    if (!mail) throw new Error(`no mail to ${email}`);
    return { mail, ...linkIn(mail, 'invitation') };
  }

  it('signs up a new person with the password they set, once; the farm sees who joined', async () => {
    const { farm, owner } = await farmWithOwner('Farm that invites');
    const sent = await invite(owner.client, farm.id, 'Nowa.Osoba@Farm.pl ', 'manager');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ email: 'nowa.osoba@farm.pl', role: 'manager', expiresAt: null });
    const link = await mailedLink('nowa.osoba@farm.pl');
    expect(link.english).toBe(true);
    expect(link.mail).toContain('Farm that invites');
    expect(link.mail).toContain(owner.user.email);
    // The table keeps the link's hash, never the link.
    const [stored] = await t.database.db.select().from(farmInvitations).where(eq(farmInvitations.id, link.uid));
    expect(stored!.tokenHash).not.toBe(link.token);
    expect(link.mail).not.toContain(stored!.tokenHash!);

    const visitor = t.client();
    const preview = await visitor.get(`/api/invitation/${link.uid}/`, { query: { token: link.token } });
    expect(preview.body).toEqual({
      farmName: 'Farm that invites',
      email: 'nowa.osoba@farm.pl',
      role: 'manager',
      accountExists: false,
    });
    const weak = await visitor.post(`/api/invitation/${link.uid}/accept/`, {
      token: link.token,
      first_name: 'Nowa',
      last_name: 'Osoba',
      newPassword: 'short',
      repeatNewPassword: 'short',
    });
    expect((weak.body as { code: string }).code).toBe('password_rejected');
    const signUp = {
      token: link.token,
      first_name: 'Nowa',
      last_name: 'Osoba',
      newPassword: NEW_PASSWORD,
      repeatNewPassword: NEW_PASSWORD,
    };
    expect((await visitor.post(`/api/invitation/${link.uid}/accept/`, signUp)).status).toBe(204);
    // Used once: the same link again, and its page, are refused.
    const again = await visitor.post(`/api/invitation/${link.uid}/accept/`, signUp);
    expect([again.status, (again.body as { code: string }).code]).toEqual([400, 'invalid_link']);
    expect((await visitor.get(`/api/invitation/${link.uid}/`, { query: { token: link.token } })).status).toBe(400);

    const joined = t.client();
    await joined.login('nowa.osoba@farm.pl', NEW_PASSWORD);
    expect((await joined.get('/api/farm/')).body).toMatchObject([{ id: farm.id, role: 'manager' }]);
    expect((await owner.client.get(`/api/farm/${farm.id}/invitations/`)).body).toEqual([]);
    type Entry = { eventType: string; event: string; details: string };
    const log = ((await owner.client.get('/api/logs/', { query: { farm: farm.id } })).body as { data: Entry[] }).data;
    expect(log.slice(0, 2).map((entry) => [entry.eventType, entry.event, entry.details])).toEqual([
      ['farm_member_added', 'nowa.osoba@farm.pl', 'manager'],
      ['farm_invitation_sent', 'nowa.osoba@farm.pl', 'manager'],
    ]);
  });

  it('lets a person with an account accept with their password only', async () => {
    const { farm, owner } = await farmWithOwner('Farm of a known person');
    const known = await t.buildUser();
    expect((await invite(owner.client, farm.id, known.email)).status).toBe(201);
    const link = await mailedLink(known.email);
    const visitor = t.client();
    const preview = await visitor.get(`/api/invitation/${link.uid}/`, { query: { token: link.token } });
    expect(preview.body).toMatchObject({ accountExists: true });
    // A new password does not take over an account: it is theirs to prove.
    const takeover = await visitor.post(`/api/invitation/${link.uid}/accept/`, {
      token: link.token,
      first_name: 'Not',
      last_name: 'Them',
      newPassword: NEW_PASSWORD,
      repeatNewPassword: NEW_PASSWORD,
    });
    expect([takeover.status, (takeover.body as { code: string }).code]).toEqual([403, 'invalid_credentials']);
    const wrong = await visitor.post(`/api/invitation/${link.uid}/accept/`, {
      token: link.token,
      password: 'Wrong-1!x',
    });
    expect(wrong.status).toBe(403);
    expect(
      (await visitor.post(`/api/invitation/${link.uid}/accept/`, { token: link.token, password: USER_PASSWORD }))
        .status,
    ).toBe(204);
    const detail = (await owner.client.get(`/api/farm/${farm.id}/`)).body as { members: { email: string }[] };
    expect(detail.members.map((member) => member.email)).toContain(known.email);
  });

  it('ends a revoked, resent or expired link; refuses a second invitation and one to a member', async () => {
    const { farm, owner } = await farmWithOwner('Farm that changes its mind');
    const email = 'zmiana@farm.pl';
    const first = (await invite(owner.client, farm.id, email)).body as { id: number };
    const firstLink = await mailedLink(email);
    const twice = await invite(owner.client, farm.id, email);
    expect([twice.status, (twice.body as { code: string }).code]).toEqual([409, 'invitation_pending']);
    const member = await invite(owner.client, farm.id, owner.user.email);
    expect((member.body as { code: string }).code).toBe('farm_member_exists');

    // Resent: the new link works, the one before does not.
    expect((await owner.client.post(`/api/farm/${farm.id}/invitations/${first.id}/resend/`)).status).toBe(200);
    const secondLink = await mailedLink(email);
    expect(secondLink.token).not.toBe(firstLink.token);
    const visitor = t.client();
    const preview = (token: string) => visitor.get(`/api/invitation/${first.id}/`, { query: { token } });
    expect((await preview(firstLink.token)).status).toBe(400);
    expect((await preview(secondLink.token)).status).toBe(200);

    // Expired (its 7 days moved into the past): refused.
    await t.database.db
      .update(farmInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(farmInvitations.id, first.id));
    expect((await preview(secondLink.token)).status).toBe(400);

    // Revoked: gone from the list, its link dead whatever its time.
    await t.database.db
      .update(farmInvitations)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(farmInvitations.id, first.id));
    expect((await preview(secondLink.token)).status).toBe(200);
    expect((await owner.client.delete(`/api/farm/${farm.id}/invitations/${first.id}/`)).status).toBe(204);
    expect((await preview(secondLink.token)).status).toBe(400);
    expect((await owner.client.get(`/api/farm/${farm.id}/invitations/`)).body).toEqual([]);
    expect((await owner.client.delete(`/api/farm/${farm.id}/invitations/${first.id}/`)).status).toBe(404);
  });

  it('lets a manager invite members and managers, not owners; a member invites no one', async () => {
    const { farm, owner } = await farmWithOwner('Farm with rules for inviting');
    const manager = await t.signedInUser();
    const member = await t.signedInUser();
    await t.admin.post(`/api/farm/${farm.id}/members/`, { email: manager.user.email, role: 'manager' });
    await t.admin.post(`/api/farm/${farm.id}/members/`, { email: member.user.email, role: 'member' });
    expect((await invite(manager.client, farm.id, 'a@farm.pl', 'manager')).status).toBe(201);
    expect((await invite(manager.client, farm.id, 'b@farm.pl', 'owner')).status).toBe(403);
    expect((await invite(member.client, farm.id, 'c@farm.pl')).status).toBe(403);
    expect((await member.client.get(`/api/farm/${farm.id}/invitations/`)).status).toBe(403);
    expect((await invite(owner.client, farm.id, 'd@farm.pl', 'owner')).status).toBe(201);
    const outsider = await t.signedInUser();
    expect((await invite(outsider.client, farm.id, 'e@farm.pl')).status).toBe(404);
  });

  it('takes one of two acceptances sent at once', async () => {
    const { farm, owner } = await farmWithOwner('Farm clicked twice');
    await invite(owner.client, farm.id, 'podwojnie@farm.pl');
    const link = await mailedLink('podwojnie@farm.pl');
    const body = {
      token: link.token,
      first_name: 'Podwójny',
      last_name: 'Klik',
      newPassword: NEW_PASSWORD,
      repeatNewPassword: NEW_PASSWORD,
    };
    const answers = await Promise.all([1, 2].map(() => t.client().post(`/api/invitation/${link.uid}/accept/`, body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 400]);
    const detail = (await owner.client.get(`/api/farm/${farm.id}/`)).body as { members: { email: string }[] };
    expect(detail.members.filter((member) => member.email === 'podwojnie@farm.pl')).toHaveLength(1);
  });
});
