import { FarmRecordListSchema, WaterBalanceSchema } from '@pivot/contracts';
import type { HttpSession } from '../support/http-session';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { addAndGrant, test } from './support/machines';

/** Days before today, as the API and the date field write them (dd.mm.yyyy). */
function daysAgo(days: number): string {
  const day = new Date(Date.now() - days * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(day.getDate())}.${pad(day.getMonth() + 1)}.${day.getFullYear()}`;
}

/** dd.mm.yyyy → a number that orders days. */
const order = (dotted: string) => Number(dotted.split('.').reverse().join(''));

async function nextIrrigation(admin: HttpSession, id: number): Promise<string> {
  const balance = WaterBalanceSchema.parse((await admin.call('GET', `/api/sprinkler/${id}/water-balance/`)).body);
  expect(balance.reason).toBeNull();
  const next = balance.zones[0]!.nextIrrigation;
  expect(next).not.toBeNull();
  return next!;
}

test("a farmer records a rain gauge's reading and the next irrigation moves; the record is in the list and can be removed", async ({
  page,
  admin,
  createUser,
  startMachine,
}) => {
  const farmer = await createUser();
  // Beside the demo's first machine, whose weather station has told its past: the balance has days.
  const centre = { lat: -27.362, lng: 26.764 };
  const machine = await startMachine({ ...centre, armLength: 200 });
  const id = await addAndGrant(admin, machine, `Pole ${machine.id}`, farmer.id);
  // Kc 1.2 on 1.5 m of loam's roots: TAW 195 mm, RAW 97.5 mm. Twenty days of the highveld's summer
  // (ET0 4–5 mm a day) leave some 80 mm to refill, which none of its showers (at most ~10 mm) did:
  // the gauge's 80 mm of yesterday refills what the station's rain never could, whatever fell.
  const seasons = await admin.call('PUT', `/api/sprinkler/${id}/crop-seasons/`, [
    {
      name: 'Trawa',
      polygon: null,
      crop: { kc: [1.2, 1.2, 1.2], stages: [10, 10, 60, 20], rootDepth: [1.5, 1.5], p: 0.5 },
      emergence: daysAgo(20),
      soil: 'loam',
    },
  ]);
  expect(seasons.status, JSON.stringify(seasons.body)).toBe(200);
  const before = await nextIrrigation(admin, id);
  const shown = (dotted: string) => (dotted === daysAgo(0) ? 'dziś' : dotted);

  await signIn(page, farmer, `/sprinklers/${id}`);
  const zone = page.getByRole('region', { name: 'Porady nawadniania' }).getByRole('listitem', { name: 'Trawa' });
  await expect(zone).toContainText(`Następne nawadnianie: ${shown(before)}`, { timeout: 30_000 });

  // 80 mm in the gauge yesterday: the root zone is full again at the start of that day.
  const records = page.getByRole('region', { name: 'Pomiary własne' });
  await expect(records).toContainText('Brak pomiarów własnych.');
  await records.getByRole('button', { name: 'Dodaj pomiar' }).click();
  const form = page.getByRole('dialog', { name: 'Dodaj pomiar' });
  await expect(form.getByLabel('Co')).toHaveValue('rain_gauge');
  await form.getByLabel('Dzień').fill(daysAgo(1));
  await expect(form.getByLabel('Gdzie')).toHaveValue('machine');
  await form.getByLabel('Woda, mm').fill('80');
  await expectAccessible(page, 'farm record form');
  // A double click stores one record: the second click comes while the first is being saved.
  await form.getByRole('button', { name: 'Zapisz' }).dblclick();
  await expect(form).toBeHidden();
  await expect(records).toContainText(`${daysAgo(1)} · Deszczomierz80 mm · Cała maszyna`);

  const after = await nextIrrigation(admin, id);
  expect(order(after)).toBeGreaterThan(order(before));
  await expect(zone).toContainText(`Następne nawadnianie: ${shown(after)}`);
  const stored = FarmRecordListSchema.parse((await admin.call('GET', `/api/sprinkler/${id}/records/`)).body);
  expect(stored).toEqual([expect.objectContaining({ kind: 'rain_gauge', date: daysAgo(1), mm: 80 })]);

  // Removed: the advice is the station's again.
  await records.getByRole('button', { name: `Usuń pomiar z ${daysAgo(1)}` }).click();
  await page
    .getByRole('dialog', { name: `Usunąć pomiar z ${daysAgo(1)}?` })
    .getByRole('button', { name: 'Usuń' })
    .click();
  await expect(records).toContainText('Brak pomiarów własnych.');
  await expect(zone).toContainText(`Następne nawadnianie: ${shown(before)}`);
});
