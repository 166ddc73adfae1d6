import { AutopilotPlanSchema, LogListResponseSchema } from '@pivot/contracts';
import { machineWithADueHalf } from './support/due-field';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { test } from './support/machines';
import { detail, toast } from './support/programs';

/* The server of the run looks every 2 s (AUTOPILOT_LOOK_SECONDS in support/global-setup.ts). */

/** The hour `hours` from now on the server's clock (TIME_ZONE, Europe/Warsaw by default), as "HH:00". */
function hourFromNow(hours: number): string {
  const hour = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Warsaw' })
    .format(Date.now() + hours * 3_600_000)
    .padStart(2, '0');
  return `${hour}:00`;
}

test('a farmer sets Suggest and is told "Irrigation due" within seconds, waters as advised with one tap, then sets Auto and reads its plan', async ({
  page,
  admin,
  createUser,
  startMachine,
}, testInfo) => {
  test.setTimeout(120_000);
  const farmer = await createUser();
  // At rest with its east half due now; its time round at 100 % set, as a machine that has not
  // watered yet needs (docs/advice.md, "The percent timer").
  const { id } = await machineWithADueHalf(admin, startMachine, farmer.id, { motion: 'stop', hoursPerCircle: 20 });
  const name = (await detail(admin, id)).name;
  try {
    await farmerFlow();
  } finally {
    await admin.call('PUT', `/api/sprinkler/${id}/autopilot/`, { mode: 'off', rules: {} });
  }

  async function farmerFlow() {
    await signIn(page, farmer, `/sprinklers/${id}`);
    // The advice has a sector due.
    const preview = page.getByRole('region', { name: 'Program z porady: najbliższy obrót' });
    await expect(preview).toBeVisible({ timeout: 30_000 });
    await expect(
      preview.getByRole('listitem').filter({ hasText: 'Z porady: uzupełnia niedobór' }).first(),
    ).toBeVisible();

    // Suggest, with no wind or frost limit (a limit needs the station's reading of the last hour).
    const card = page.getByRole('region', { name: 'Autopilot', exact: true });
    const form = card.getByRole('form', { name: 'Autopilot' });
    const plan = card.getByRole('region', { name: 'Co zrobi autopilot' });
    await expect(plan).toBeVisible();
    await form.getByRole('radio', { name: 'Podpowiada' }).check();
    await form.getByLabel('Wstrzymuj przy silnym wietrze').uncheck();
    await form.getByLabel('Wstrzymuj przy przymrozku').uncheck();
    await form.getByRole('button', { name: 'Zapisz autopilota' }).click();
    await expect(toast(page, 'Zapisano autopilota')).toBeVisible();

    // Within seconds the watcher looks and the farmer is told, in the app.
    const due = page.getByRole('alert').filter({ hasText: `Maszyna ${name} powinna teraz nawadniać: ` });
    await expect(due).toBeVisible({ timeout: 15_000 });
    await expect(due).toContainText('Pora nawadniać');
    await expect(plan).toContainText(/Teraz: Start/);
    await page.screenshot({ path: testInfo.outputPath('irrigation-due.png') });
    await due.getByRole('link', { name: 'Otwórz autopilota' }).click();
    await expect(page).toHaveURL(new RegExp(`/sprinklers/${id}#autopilot$`));

    // One tap: the program from the advice is sent and the machine started, as auto would.
    const waterNow = plan.getByRole('button', { name: 'Nawadniaj teraz wg porady' });
    await expect(waterNow).toBeInViewport();
    await expect(plan).toContainText(
      'Wysyła do maszyny program z porady i od razu uruchamia ją do przodu: sektory Wschód',
    );
    await waterNow.click();
    await expect(toast(page, 'Rozpoczęto nawadnianie wg porady')).toBeVisible({ timeout: 30_000 });
    const started = await detail(admin, id);
    expect(started.status).toBe('front');
    expect(started.currentProgramData!.features.map((feature) => feature.properties.name)).toEqual([
      'Wschód',
      'Zachód',
    ]);
    expect(started.currentProgramData!.features[0]!.properties.rate).toBeGreaterThan(0);
    await expect(due).toBeHidden();
    await expect(plan).toContainText('Teraz: Nawadnia: bez zmian');

    // Auto, allowed from 3 hours from now for 2 hours: the pass tapped goes on, and the plan lists
    // the next one in the window, after the revolution (its sectors taken as refilled then).
    await form.getByRole('radio', { name: 'Automatycznie' }).check();
    const window = form.getByRole('group', { name: 'Okno 1' });
    await window.getByLabel('Od').fill(hourFromNow(3));
    await window.getByLabel('Do').fill(hourFromNow(5));
    const saved = page.waitForResponse(
      (response) => response.url().endsWith(`/api/sprinkler/${id}/autopilot/`) && response.request().method() === 'PUT',
    );
    const planned = page.waitForResponse((response) => response.url().endsWith(`/api/sprinkler/${id}/autopilot/plan/`));
    await form.getByRole('button', { name: 'Zapisz autopilota' }).click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({
      mode: 'auto',
      rules: { allowedHours: [{ start: hourFromNow(3), end: hourFromNow(5) }] },
    });
    // The plan is asked again after the save.
    expect(await (await planned).json()).toMatchObject({ mode: 'auto' });
    await expect(plan).toContainText('Teraz: Nawadnia: bez zmian');
    const passes = plan.getByRole('list', { name: /^Najbliższe przejazdy/ }).getByRole('listitem');
    await expect(passes.first()).toContainText(`Start`);
    await expect(passes.first()).toContainText(`${hourFromNow(3)}`);
    await expect(passes.first()).toContainText('Sektory');
    await expect(passes.first()).toContainText(/Woda[\d,]+ mm · [\d\s]+ m³/);
    await expect(plan).toContainText('Podaj moc pompy w regułach, aby zobaczyć energię i koszt.');
    await expectAccessible(page, 'autopilot card with its plan');
    await card.screenshot({ path: testInfo.outputPath('autopilot-plan.png') });

    // What the page showed is what the server plans; the tapped pass still waters, the farmer's.
    const stored = AutopilotPlanSchema.parse((await admin.call('GET', `/api/sprinkler/${id}/autopilot/plan/`)).body);
    expect(stored.mode).toBe('auto');
    expect(stored.passes.length).toBeGreaterThan(0);
    expect((await detail(admin, id)).status).toBe('front');
    const log = LogListResponseSchema.parse((await admin.call('GET', '/api/logs/')).body).data.filter(
      (entry) => entry.sprinklerName === name,
    );
    const byFarmer = (eventType: string) =>
      log.filter((entry) => entry.eventType === eventType && entry.ip !== '').map((entry) => entry.event);
    expect(byFarmer('sprinkler_motion_success')).toEqual(['front']);
    expect(byFarmer('program_sent')).toHaveLength(1);
  }
});
