import { AUTOPILOT_START_FAILURES } from '@pivot/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { activateLocale, i18n, loadCataloguePart } from './i18n';
import { logEventText } from './log-event-text';

// The base and signed-in parts of the catalogue, as on the activity page and under the bell: no
// machine screen shown yet.
describe("an incident event in words, without the machine screens' catalogue", () => {
  beforeEach(async () => {
    await loadCataloguePart('signedIn');
    await activateLocale('pl');
  });

  it('writes a pressure with the locale’s decimal separator', async () => {
    expect(logEventText(i18n.t, 'pl', 'sprinkler_low_pressure', { machine: 'Pole A', detail: '0.2 bar' })).toEqual({
      title: 'Niskie ciśnienie',
      subtitle: 'Ciśnienie na maszynie Pole A spadło do 0,2 bar podczas pracy',
    });
    await activateLocale('en');
    expect(
      logEventText(i18n.t, 'en', 'sprinkler_pressure_restored', { machine: 'Field A', detail: '2.45 bar' }).subtitle,
    ).toBe('Pressure at machine Field A is back to 2.45 bar');
  });

  it('words a known alarm reason, and shows another as the machine sent it', () => {
    const alarm = (detail: string) =>
      logEventText(i18n.t, 'pl', 'sprinkler_alarm', { machine: 'Pole A', detail }).subtitle;
    expect(alarm('pressure_loss')).toBe('Maszyna Pole A zgłasza alarm: spadek ciśnienia wody');
    expect(alarm('gearbox_jam')).toBe('Maszyna Pole A zgłasza alarm: gearbox_jam');
    expect(alarm('')).toBe('Maszyna Pole A zgłasza alarm');
  });

  it("words every reason the autopilot's start failed, in both languages", async () => {
    for (const language of ['pl', 'en'] as const) {
      await activateLocale(language);
      for (const reason of AUTOPILOT_START_FAILURES) {
        const { subtitle } = logEventText(i18n.t, language, 'sprinkler_autopilot_start_failed', {
          machine: 'Pole A',
          detail: reason,
        });
        expect(subtitle).toContain('Pole A');
        expect(subtitle).not.toMatch(new RegExp(`: ${reason}$`));
      }
    }
    expect(
      logEventText(i18n.t, 'en', 'sprinkler_autopilot_start_failed', { machine: 'Pole A', detail: 'unanswered' })
        .subtitle,
    ).toBe('The autopilot could not start machine Pole A: the machine did not answer in time');
  });
});

describe('a grant in words', () => {
  beforeEach(async () => {
    await loadCataloguePart('signedIn');
    await activateLocale('en');
  });

  it('names the level it gave, and reads without one for a grant written before levels', async () => {
    const params = { machine: 'Field A', user: 'anna@example.com' };
    expect(logEventText(i18n.t, 'en', 'sprinkler_access_granted', params, 'watch').subtitle).toBe(
      'Machine Field A, user anna@example.com: watch only',
    );
    expect(logEventText(i18n.t, 'en', 'sprinkler_access_granted', params, 'control').subtitle).toBe(
      'Machine Field A, user anna@example.com: control',
    );
    expect(logEventText(i18n.t, 'en', 'sprinkler_access_granted', params).subtitle).toBe(
      'Machine Field A, user anna@example.com',
    );
    await activateLocale('pl');
    expect(logEventText(i18n.t, 'pl', 'sprinkler_access_granted', params, 'watch').subtitle).toBe(
      'Maszyna Field A, użytkownik anna@example.com: tylko podgląd',
    );
  });
});

describe('a depth at 100 % in words', () => {
  beforeEach(async () => {
    await loadCataloguePart('signedIn');
    await activateLocale('pl');
  });

  it('writes the depth with the locale’s decimal separator, or says it is learned again', async () => {
    expect(
      logEventText(i18n.t, 'pl', 'sprinkler_application_depth_updated', { machine: 'Pole A', depth: '4.5' }),
    ).toEqual({
      title: 'Zmieniono dawkę przy 100 %',
      subtitle: 'Maszyna Pole A daje 4,5 mm przy 100 %, jak ustawił administrator',
    });
    await activateLocale('en');
    expect(
      logEventText(i18n.t, 'en', 'sprinkler_application_depth_updated', { machine: 'Field A', depth: '' }, 'learned')
        .subtitle,
    ).toBe('Machine Field A: the depth at 100 % is learned from its reports again');
  });

  it('writes the hours a circle at 100 % with the locale’s decimal separator', async () => {
    await activateLocale('pl');
    expect(
      logEventText(i18n.t, 'pl', 'sprinkler_hours_per_circle_updated', { machine: 'Pole A', hours: '20.5' }).subtitle,
    ).toBe('Maszyna Pole A robi obrót w 20,5 h przy 100 %, jak ustawił administrator');
  });
});

describe('a farm record in words', () => {
  beforeEach(async () => {
    await loadCataloguePart('signedIn');
    await activateLocale('pl');
  });

  it("names a farm record's kind, its day in the app's date style and its values with the locale's decimal separator", async () => {
    const record = { record: '05.06.2026 · 3.5 mm · Kukurydza', machine: 'Pole A' };
    expect(logEventText(i18n.t, 'pl', 'sprinkler_record_added', record, 'rain_gauge')).toEqual({
      title: 'Dodano pomiar własny',
      subtitle: 'Deszczomierz 05.06.2026 · 3,5 mm · Kukurydza na maszynie Pole A',
    });
    await activateLocale('en');
    expect(
      logEventText(
        i18n.t,
        'en',
        'sprinkler_record_removed',
        { record: '07.06.2026 · SOIL-1 · 22.5 %', machine: 'Field A' },
        'probe',
      ),
    ).toEqual({ title: 'Record removed', subtitle: 'Probe reading 07/06/2026 · SOIL-1 · 22.5 % on machine Field A' });
  });
});

describe("an autopilot's mode in words", () => {
  beforeEach(async () => {
    await loadCataloguePart('signedIn');
    await activateLocale('pl');
  });

  it('names the mode in the page’s language, and says when a person took the machine over', async () => {
    expect(logEventText(i18n.t, 'pl', 'sprinkler_autopilot_updated', { machine: 'Pole A', mode: 'auto' })).toEqual({
      title: 'Zmieniono autopilota',
      subtitle: 'Autopilot maszyny Pole A: automatycznie',
    });
    expect(
      logEventText(i18n.t, 'pl', 'sprinkler_autopilot_updated', { machine: 'Pole A', mode: 'suggest' }, 'taken_over')
        .subtitle,
    ).toBe('Autopilot maszyny Pole A: podpowiada, bo ktoś wysłał maszynie polecenie lub program');
    await activateLocale('en');
    expect(
      logEventText(i18n.t, 'en', 'sprinkler_autopilot_updated', { machine: 'Field A', mode: 'off' }).subtitle,
    ).toBe('Autopilot of Field A: off');
  });
});
