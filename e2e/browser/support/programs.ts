import type { ProgramData, SprinklerDetail } from '@pivot/contracts';
import type { Locator, Page } from '@playwright/test';
import type { HttpSession } from '../../support/http-session';
import { expect } from './fixtures';

/** Programs of the demo fleet's machines as the specs read, change and put them back. */

/** A machine of the demo fleet by its machine ID, as the administrator sees it. */
export async function machine(admin: HttpSession, internalId: string): Promise<SprinklerDetail> {
  const list = await admin.call('GET', `/api/sprinkler/list/?search=${internalId}`);
  expect(list.status).toBe(200);
  const { data } = list.body as { data: { sprinkler: { id: number; internalId: string } }[] };
  const found = data.find((item) => item.sprinkler.internalId === internalId);
  expect(found, internalId).toBeTruthy();
  return detail(admin, found!.sprinkler.id);
}

export async function detail(admin: HttpSession, id: number): Promise<SprinklerDetail> {
  const response = await admin.call('GET', `/api/sprinkler/${id}/`);
  expect(response.status).toBe(200);
  return response.body as SprinklerDetail;
}

export const programNamed = (sprinkler: SprinklerDetail, name: string) =>
  sprinkler.programs.find((program) => program.name === name);

export async function createProgram(admin: HttpSession, id: number, name: string, programData?: ProgramData) {
  const body = { name, programData: programData ?? { type: 'FeatureCollection', features: [] } };
  const response = await admin.call('POST', `/api/sprinkler/${id}/program/`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return programNamed(response.body as SprinklerDetail, name)!;
}

async function deletePrograms(admin: HttpSession, id: number, keep: (name: string) => boolean) {
  for (const program of (await detail(admin, id)).programs) {
    if (!keep(program.name)) await admin.call('DELETE', `/api/sprinkler/${id}/program/${program.id}/`);
  }
}

/**
 * Puts the machine back as the demo started it: running its program (sent again when it runs
 * another), stored once under its name with the sectors it runs, and nothing else stored.
 */
export async function restoreMachine(admin: HttpSession, original: SprinklerDetail) {
  const running = original.currentProgramData!;
  const programData: ProgramData = { type: 'FeatureCollection', features: running.features };
  await deletePrograms(admin, original.id, (name) => name === running.name);
  let stored = programNamed(await detail(admin, original.id), running.name);
  if (stored) {
    await admin.call('PATCH', `/api/sprinkler/${original.id}/program/${stored.id}/`, {
      name: running.name,
      programData,
    });
  } else {
    stored = await createProgram(admin, original.id, running.name, programData);
  }
  if ((await detail(admin, original.id)).currentProgramData?.name !== running.name) {
    const sent = await admin.call('POST', `/api/sprinkler/${original.id}/program/${stored.id}/send/`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await expect
      .poll(async () => (await detail(admin, original.id)).currentProgramData?.name, { timeout: 20_000 })
      .toBe(running.name);
  }
}

/** A program's row in the panel, found by its name. */
export function programItem(page: Page, name: string): Locator {
  return page
    .getByRole('list', { name: 'Zapisane programy' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: new RegExp(`^${name}`) }) });
}

/** Opens (selects) a program in the panel, unless it is open already. */
export async function openProgram(page: Page, name: string): Promise<Locator> {
  const item = programItem(page, name);
  const toggle = item.getByRole('button', { name: new RegExp(`^${name}`) });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return item;
}

export const toast = (page: Page, text: string | RegExp) =>
  page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text });
