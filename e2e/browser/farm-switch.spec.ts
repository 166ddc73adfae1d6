import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn } from './support/fixtures';
import type { HttpSession } from '../support/http-session';
import { type PivotMachine, test } from './support/machines';

/** A farm of the administrator's making with one machine in it. */
async function farmWithMachine(admin: HttpSession, name: string, machine: PivotMachine, machineName: string) {
  const farm = await admin.call('POST', '/api/farm/', { name });
  expect(farm.status, JSON.stringify(farm.body)).toBe(201);
  const farmId = (farm.body as { id: number }).id;
  const added = await admin.call('POST', '/api/sprinkler/', { internalId: machine.id, name: machineName, farmId });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return farmId;
}

const machinesTable = (page: Page, name: string) => page.getByRole('table', { name });

test('a person in two farms sees their machines side by side, switches to one farm, and the activity log follows', async ({
  page,
  admin,
  createUser,
  startMachine,
}) => {
  const person = await createUser({ firstName: 'Anna', lastName: 'Dwugospodarska' });
  const [homeMachine, neighbourMachine] = await Promise.all([startMachine(), startMachine()]);
  const suffix = homeMachine.id;
  const [home, neighbour] = [`Gospodarstwo Domowe ${suffix}`, `Gospodarstwo Sąsiada ${suffix}`];
  const homeFarm = await farmWithMachine(admin, home, homeMachine, `Pole przy domu ${suffix}`);
  const neighbourFarm = await farmWithMachine(admin, neighbour, neighbourMachine, `Pole za lasem ${suffix}`);
  for (const farmId of [homeFarm, neighbourFarm]) {
    const added = await admin.call('POST', `/api/farm/${farmId}/members/`, { email: person.email, role: 'manager' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }

  // Both farms' machines, each row naming its farm.
  await signIn(page, person, '/sprinklers');
  const table = machinesTable(page, 'Maszyny');
  const switcher = page.getByRole('combobox', { name: 'Gospodarstwo' });
  await expect(switcher).toHaveValue('');
  await expect(table.getByRole('row').filter({ hasText: `Pole przy domu ${suffix}` })).toContainText(home);
  await expect(table.getByRole('row').filter({ hasText: `Pole za lasem ${suffix}` })).toContainText(neighbour);
  await expectAccessible(page, 'the machines of two farms side by side');

  // Switched to the neighbour's farm: its machine alone, and its farm no longer said on each row.
  await switcher.selectOption({ label: neighbour });
  await expect(table.getByRole('row').filter({ hasText: `Pole przy domu ${suffix}` })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: `Pole za lasem ${suffix}` })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: /Gospodarstwo/ })).toHaveCount(0);

  // The log is the neighbour farm's too, on this screen and after a reload.
  await page.goto('/dashboard/activity');
  await expect(switcher).toHaveValue(String(neighbourFarm));
  const log = page.getByRole('table', { name: 'Aktywność konta' });
  await expect(log.getByRole('row').filter({ hasText: 'Pole za lasem' }).first()).toBeVisible();
  await expect(log.getByRole('row').filter({ hasText: 'Pole przy domu' })).toHaveCount(0);
  await page.reload();
  await expect(switcher).toHaveValue(String(neighbourFarm));

  // All farms again.
  await switcher.selectOption({ label: 'Wszystkie gospodarstwa' });
  await expect(log.getByRole('row').filter({ hasText: 'Pole przy domu' }).first()).toBeVisible();
  await page.goto('/sprinklers');
  await expect(table.getByRole('row').filter({ hasText: `Pole przy domu ${suffix}` })).toBeVisible();
});
