import { type IncidentKind, TARIFF_PRESETS } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { type Decision, type DecisionInput, decideNext, explainDecision } from '../../src/modules/autopilot';
import { HOUR, NEXT_DAY, TIME_ZONE, area, at, input, rain, rules } from './fixtures';

const G12 = { tariff: TARIFF_PRESETS.G12 };
const texts = (decision: Decision, given: DecisionInput) => ({
  en: explainDecision(decision, 'en', given.now, TIME_ZONE),
  pl: explainDecision(decision, 'pl', given.now, TIME_ZONE),
});
const decideAndTell = (given: DecisionInput) => {
  const decision = decideNext(given);
  return { decision, ...texts(decision, given) };
};

describe('the autopilot: when water is due', () => {
  it('starts now when an area is due and nothing holds it', () => {
    const { decision, en, pl } = decideAndTell(input());
    expect(decision).toMatchObject({ kind: 'start', at: at('14:00'), dueAt: at('19:00'), late: false, zone: null });
    expect(decision).toMatchObject({ areas: ['North'], water: { m3: 800, mm: 1.6 }, allowanceWarning: null });
    expect(en).toBe('Start 14:00; latest start 19:00');
    expect(pl).toBe('Start 14:00; najpóźniej: 19:00');
  });

  it('does not say it starts while the program from the advice has nothing to send, and waits as it would', () => {
    const { decision, en, pl } = decideAndTell(input({ programReady: false }));
    expect(decision).toMatchObject({ kind: 'refuse', reason: 'nothing_to_send' });
    expect(en).toMatch(/^Not started yet: the program from the advice waters no sector/);
    expect(pl).toMatch(/^Jeszcze nie uruchomiono: program z porady nie podlewa/);
    // A start put off to the cheap zone is still said as such: the program is looked at when it comes.
    expect(decideNext(input({ programReady: false, rules: rules(G12), now: at('12:00') })).kind).toBe('wait');
  });

  it('says when the first area reaches its trigger while none is due', () => {
    const given = input({ areas: [area({ triggerAt: at('21:00', NEXT_DAY) }), area({ name: 'South' })] });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({ kind: 'not_due', triggerAt: at('21:00', NEXT_DAY), area: 'North' });
    expect(en).toBe('Not due: the first area needs water at 21:00 tomorrow; soil water deficit 38 of 52 mm (RAW)');
    expect(pl).toBe(
      'Jeszcze nie trzeba nawadniać: pierwszy obszar potrzebuje wody od: jutro 21:00; deficyt wody 38 z 52 mm (RAW)',
    );
  });

  it('is not due when no area reaches its trigger within the projection', () => {
    const { decision, en } = decideAndTell(input({ areas: [area({ depletionMm: 12 })] }));
    expect(decision).toMatchObject({ kind: 'not_due', triggerAt: null, depletionMm: 12 });
    expect(en).toBe('Not due: no area needs water within the forecast; soil water deficit 12 of 52 mm (RAW)');
  });

  it('waters every area whose latest start comes within a day, by the earliest of them', () => {
    const given = input({
      areas: [
        area({ name: 'East', triggerAt: at('12:00', NEXT_DAY), armHours: 6 }),
        area({ triggerAt: at('21:00') }),
        area({ name: 'West', triggerAt: at('20:00', '2026-07-17') }),
      ],
    });
    expect(decideNext(given)).toMatchObject({ kind: 'start', areas: ['North', 'East'], dueAt: at('19:00') });
  });
});

describe('the autopilot: rain', () => {
  it('skips a due pass when the forecast gives enough rain soon', () => {
    const given = input({ forecastRain: rain(at('18:00'), 4, 3.5) });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({ kind: 'skip_rain', rainMm: 14, withinHours: 24, depletionMm: 38, rawMm: 52 });
    expect(en).toBe('Skipped: 14 mm of rain forecast within 24 h; soil water deficit 38 of 52 mm (RAW)');
    expect(pl).toBe('Pominięto: prognoza 14 mm deszczu w ciągu 24 h; deficyt wody 38 z 52 mm (RAW)');
  });

  it('skips at exactly the rule’s rain, counting the hour under way', () => {
    expect(decideNext(input({ forecastRain: rain(at('18:00'), 4, 2.5) })).kind).toBe('skip_rain');
    expect(decideNext(input({ forecastRain: rain(at('13:30'), 1, 10) })).kind).toBe('skip_rain');
    expect(decideNext(input({ forecastRain: rain(at('13:00'), 1, 10) })).kind).toBe('start');
  });

  it('does not skip for rain below the rule, or beyond its hours', () => {
    expect(decideNext(input({ forecastRain: rain(at('18:00'), 4, 2) })).kind).toBe('start');
    expect(decideNext(input({ forecastRain: rain(at('14:00') + 25 * HOUR, 4, 5) })).kind).toBe('start');
    const rainFree = input({ forecastRain: rain(at('18:00'), 4, 5), rules: rules({ rainSkip: null }) });
    expect(decideNext(rainFree).kind).toBe('start');
  });

  it('brings the pass back when the forecast rain did not fall, and says so', () => {
    const lastSkip = { at: at('12:00') - 24 * HOUR, forecastMm: 14, withinHours: 24, fallenMm: 2 };
    const { decision, en, pl } = decideAndTell(input({ lastSkip }));
    expect(decision).toMatchObject({ kind: 'reconcile', forecastMm: 14, fallenMm: 2, then: { kind: 'start' } });
    expect(en).toBe('Irrigation back: 14 mm of rain was forecast, 2 mm fell. Start 14:00; latest start 19:00');
    expect(pl).toBe('Nawadnianie przywrócone: prognozowano 14 mm deszczu, spadło 2 mm. Start 14:00; najpóźniej: 19:00');
  });

  it('skips again when rain is forecast anew, and says nothing of a skip once the rain made the area not due', () => {
    const lastSkip = { at: at('12:00') - 24 * HOUR, forecastMm: 14, withinHours: 24, fallenMm: 2 };
    expect(decideNext(input({ lastSkip, forecastRain: rain(at('20:00'), 2, 6) })).kind).toBe('skip_rain');
    const wetted = input({ lastSkip: { ...lastSkip, fallenMm: 16 }, areas: [area({ depletionMm: 5 })] });
    expect(decideNext(wetted).kind).toBe('not_due');
  });

  it('keeps the reconciled pass to the tariff: waits for the cheap zone', () => {
    const lastSkip = { at: at('12:00') - 24 * HOUR, forecastMm: 14, withinHours: 24, fallenMm: 0 };
    const given = input({
      now: at('16:00'),
      lastSkip,
      rules: rules(G12),
      areas: [area({ triggerAt: at('11:00', NEXT_DAY) })],
    });
    expect(decideNext(given)).toMatchObject({ kind: 'reconcile', then: { kind: 'wait', until: at('22:00') } });
  });
});

describe('the autopilot: tariff and allowed hours', () => {
  const dueTomorrow = [area({ triggerAt: at('11:00', NEXT_DAY) })];

  it('waits for the G12 night zone when it still waters in time', () => {
    const given = input({ now: at('16:00'), rules: rules(G12), areas: dueTomorrow });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({
      kind: 'wait',
      until: at('22:00'),
      reason: 'tariff',
      zone: { tariff: 'G12', zone: 'night', pricePerKwh: 0.6 },
      zoneNow: { zone: 'day', pricePerKwh: 1.1 },
      dueAt: at('09:00', NEXT_DAY),
    });
    expect(en).toBe(
      'Start put off until 22:00, the G12 night zone (0.60 instead of 1.10 PLN/kWh); latest start 09:00 tomorrow',
    );
    expect(pl).toBe('Start odłożony na 22:00, strefa nocna G12 (0,60 zamiast 1,10 PLN/kWh); najpóźniej: jutro 09:00');
  });

  it('starts when the night zone comes', () => {
    const given = input({ now: at('22:00'), rules: rules(G12), areas: dueTomorrow });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({ kind: 'start', at: at('22:00'), zone: { zone: 'night' } });
    expect(en).toBe('Start 22:00, the G12 night zone; latest start 09:00 tomorrow');
    expect(pl).toBe('Start 22:00, strefa nocna G12; najpóźniej: jutro 09:00');
  });

  it('starts now in the expensive zone when the cheap one would come too late', () => {
    const given = input({ now: at('16:00'), rules: rules(G12) });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({ kind: 'start', at: at('16:00'), zone: { zone: 'day' }, dueAt: at('19:00') });
    expect(en).toBe('Start 16:00, the G12 day zone; latest start 19:00');
    expect(pl).toBe('Start 16:00, strefa dzienna G12; najpóźniej: 19:00');
  });

  it('takes the afternoon cheap hours of G12 when they come first', () => {
    const given = input({ now: at('11:00'), rules: rules(G12), areas: [area({ triggerAt: at('18:00') })] });
    expect(decideNext(given)).toMatchObject({ kind: 'wait', until: at('13:00'), zone: { zone: 'night' } });
  });

  it('reads a weekday tariff by the day: C12a is off-peak on a Saturday morning', () => {
    const saturday = '2026-07-18';
    const dueSaturday = [area({ triggerAt: at('20:00', saturday) })];
    const c12a = rules({ tariff: TARIFF_PRESETS.C12A });
    expect(decideNext(input({ now: at('09:00', saturday), rules: c12a, areas: dueSaturday }))).toMatchObject({
      kind: 'start',
      zone: { zone: 'off_peak' },
    });
    expect(decideNext(input({ now: at('09:00'), rules: c12a }))).toMatchObject({
      kind: 'wait',
      until: at('11:00'),
      zone: { zone: 'off_peak' },
    });
  });

  it('waits for the first allowed hour', () => {
    const nights = rules({ allowedHours: [{ start: '20:00', end: '06:00' }] });
    const given = input({ rules: nights, areas: dueTomorrow });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({ kind: 'wait', until: at('20:00'), reason: 'allowed_hours', late: false });
    expect(en).toBe('Start put off until 20:00, the first allowed hour; latest start 09:00 tomorrow');
    expect(pl).toBe('Start odłożony na 20:00, pierwszą dozwoloną godzinę; najpóźniej: jutro 09:00');
  });

  it('prefers a cheaper zone to the first allowed hour when it still waters in time', () => {
    const given = input({
      rules: rules({ ...G12, allowedHours: [{ start: '20:00', end: '06:00' }] }),
      areas: dueTomorrow,
    });
    expect(decideNext(given)).toMatchObject({ kind: 'wait', until: at('22:00'), reason: 'tariff' });
  });

  it('starts late at the first allowed hour when none comes before the due time', () => {
    const nights = rules({ allowedHours: [{ start: '20:00', end: '06:00' }] });
    const given = input({ rules: nights, areas: [area({ triggerAt: at('13:00') })] });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({ kind: 'wait', until: at('20:00'), late: true, dueAt: at('11:00') });
    expect(en).toBe('Start put off until 20:00, the first allowed hour; latest start 11:00, already passed');
    expect(pl).toBe('Start odłożony na 20:00, pierwszą dozwoloną godzinę; najpóźniej: 11:00, ta chwila już minęła');
    const allowed = decideAndTell({
      ...given,
      now: at('21:00'),
      station: { at: at('21:00'), windMs: 3, temperatureC: 18 },
    });
    expect(allowed.decision).toMatchObject({ kind: 'start', late: true });
    expect(allowed.en).toBe('Start 21:00; latest start 11:00, already passed');
  });

  it('allows only the days the rules name', () => {
    const weekend = rules({ allowedHours: [{ days: [6, 7], start: '00:00', end: '24:00' }] });
    const friday = '2026-07-17';
    const given = input({
      now: at('10:00', friday),
      rules: weekend,
      areas: [area({ triggerAt: at('20:00', friday) })],
    });
    // Due on Friday, but only the weekend is allowed: late, on Saturday at midnight.
    expect(decideNext(given)).toMatchObject({ kind: 'wait', until: at('00:00', '2026-07-18'), late: true });
  });
});

describe('the autopilot: a pump shared by three machines', () => {
  const pumpRules = (maxAtOnce: number) => rules({ pumpGroup: { id: 'Well 1', maxAtOnce } });
  const machines = [
    { id: 1, name: 'Pivot 1', slackHours: 5 },
    { id: 2, name: 'Pivot 2', slackHours: 2 },
    { id: 3, name: 'Pivot 3', slackHours: 8 },
  ];
  /** Each machine's decision, its areas due so that it has its slack, the others due at once. */
  const decideEach = (maxAtOnce: number) =>
    machines.map((machine) =>
      decideNext(
        input({
          machine: { ...input().machine, id: machine.id, name: machine.name },
          rules: pumpRules(maxAtOnce),
          areas: [area({ triggerAt: at('14:00') + (machine.slackHours + 2) * HOUR })],
          pump: { watering: [], due: machines.filter((other) => other.id !== machine.id) },
        }),
      ),
    );

  it('starts the most urgent and queues the others behind it by urgency', () => {
    const [first, second, third] = decideEach(1);
    expect(second).toMatchObject({ kind: 'start' });
    expect(first).toMatchObject({ kind: 'queue_pump', ahead: ['Pivot 2'], slackHours: 5 });
    expect(third).toMatchObject({ kind: 'queue_pump', ahead: ['Pivot 2', 'Pivot 1'] });
    expect(explainDecision(first!, 'en', at('14:00'), TIME_ZONE)).toBe(
      'Queued: the pump Well 1 feeds at most 1 machine at once; ahead: Pivot 2',
    );
    expect(explainDecision(third!, 'pl', at('14:00'), TIME_ZONE)).toBe(
      'W kolejce: pompa Well 1 zasila najwyżej 1 maszynę naraz; wcześniej: Pivot 2, Pivot 1',
    );
  });

  it('starts as many as the pump feeds', () => {
    const decided = decideEach(2);
    expect(decided.map((decision) => decision.kind)).toEqual(['start', 'start', 'queue_pump']);
    expect(explainDecision(decided[2]!, 'pl', at('14:00'), TIME_ZONE)).toBe(
      'W kolejce: pompa Well 1 zasila najwyżej 2 maszyny naraz; wcześniej: Pivot 2, Pivot 1',
    );
  });

  it('queues behind the machines watering from the pump now', () => {
    const given = input({ rules: pumpRules(1), pump: { watering: [{ id: 4, name: 'Pivot 4' }], due: [] } });
    expect(decideNext(given)).toMatchObject({ kind: 'queue_pump', wateringNow: ['Pivot 4'], ahead: ['Pivot 4'] });
  });

  it('lets a machine that waits for a cheaper zone wait, whatever the pump', () => {
    const given = input({
      now: at('16:00'),
      rules: rules({ ...G12, pumpGroup: { id: 'Well 1', maxAtOnce: 1 } }),
      areas: [area({ triggerAt: at('11:00', NEXT_DAY) })],
      pump: { watering: [{ id: 4, name: 'Pivot 4' }], due: [] },
    });
    expect(decideNext(given).kind).toBe('wait');
  });
});

describe('the autopilot: the season allowance', () => {
  const allowance = rules({ allowance: { unit: 'm3', amount: 10_000 } });

  it('refuses in auto a pass that would go beyond it', () => {
    const given = input({ rules: allowance, season: { usedM3: 9300, usedMm: 0 } });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({
      kind: 'refuse',
      reason: 'allowance',
      allowanceWarning: { used: 9300, pass: 800, amount: 10_000, share: 93, wouldPass: true },
    });
    expect(en).toBe(
      "Not started: the pass would use 800 m³ and 700 m³ of the season's allowance are left (9,300 of 10,000 m³ used)",
    );
    expect(pl).toBe(
      'Nie uruchomiono: przejazd zużyłby 800 m³, a z sezonowego limitu zostało 700 m³ (zużyto 9300 z 10\u00a0000 m³)',
    );
  });

  it('suggests the pass with the warning that it would go beyond it', () => {
    const given = input({ mode: 'suggest', rules: allowance, season: { usedM3: 9300, usedMm: 0 } });
    const { decision, en, pl } = decideAndTell(given);
    expect(decision.kind).toBe('start');
    expect(en).toBe(
      'Start 14:00; latest start 19:00. Season allowance: 93% used (9,300 of 10,000 m³), and this pass would go beyond it',
    );
    expect(pl).toBe(
      'Start 14:00; najpóźniej: 19:00. Limit sezonowy: zużyto 93% (9300 z 10\u00a0000 m³), a ten przejazd by go przekroczył',
    );
  });

  it('warns on every decision from 80 % used, and not before', () => {
    const warned = decideAndTell(input({ rules: allowance, season: { usedM3: 8000, usedMm: 0 } }));
    expect(warned.decision).toMatchObject({ kind: 'start', allowanceWarning: { share: 80, wouldPass: false } });
    expect(warned.en).toBe('Start 14:00; latest start 19:00. Season allowance: 80% used (8,000 of 10,000 m³)');
    const rained = input({
      rules: allowance,
      season: { usedM3: 8000, usedMm: 0 },
      forecastRain: rain(at('15:00'), 2, 8),
    });
    expect(decideNext(rained)).toMatchObject({ kind: 'skip_rain', allowanceWarning: { share: 80 } });
    const offline = input({ rules: allowance, season: { usedM3: 8500, usedMm: 0 } });
    offline.machine.online = false;
    expect(decideNext(offline)).toMatchObject({ kind: 'refuse', reason: 'offline', allowanceWarning: { share: 85 } });
    expect(decideNext(input({ rules: allowance, season: { usedM3: 7990, usedMm: 0 } })).allowanceWarning).toBeNull();
  });

  it('counts an allowance in mm over the machine’s field', () => {
    const millimetres = rules({ allowance: { unit: 'mm', amount: 300 } });
    // The pass: 800 m³ over 50 ha is 1.6 mm.
    expect(decideNext(input({ rules: millimetres, season: { usedM3: 0, usedMm: 298.5 } }))).toMatchObject({
      kind: 'refuse',
      reason: 'allowance',
      allowanceWarning: { pass: 1.6 },
    });
    expect(decideNext(input({ rules: millimetres, season: { usedM3: 0, usedMm: 298 } })).kind).toBe('start');
  });

  it('refuses by the allowance before it skips for rain', () => {
    const given = input({
      rules: allowance,
      season: { usedM3: 9500, usedMm: 0 },
      forecastRain: rain(at('15:00'), 2, 8),
    });
    expect(decideNext(given)).toMatchObject({ kind: 'refuse', reason: 'allowance' });
  });
});

describe('the autopilot: wind and frost', () => {
  const running = (station: { windMs: number; temperatureC: number }, pausedBy: 'wind' | 'frost' | null = null) => {
    const given = input();
    return {
      ...given,
      machine: { ...given.machine, watering: pausedBy === null ? ('autopilot' as const) : null, pausedBy },
      station: { at: given.now, ...station },
    };
  };

  it('pauses a run above the wind limit, and holds it until the wind is 1 m/s below it', () => {
    const { decision, en, pl } = decideAndTell(running({ windMs: 12, temperatureC: 18 }));
    expect(decision).toMatchObject({ kind: 'pause_wind', windMs: 12, maxMs: 10, stopsRunning: true });
    expect(en).toBe('Paused: wind 12 m/s, above the 10 m/s limit');
    expect(pl).toBe('Wstrzymano: wiatr 12 m/s, powyżej limitu 10 m/s');
    expect(decideNext(running({ windMs: 9.5, temperatureC: 18 }, 'wind'))).toMatchObject({
      kind: 'pause_wind',
      stopsRunning: false,
    });
    const resumed = decideAndTell(running({ windMs: 8.5, temperatureC: 18 }, 'wind'));
    expect(resumed.decision).toMatchObject({ kind: 'resume', windMs: 8.5, temperatureC: 18 });
    expect(resumed.en).toBe('Resumed: wind 8.5 m/s and 18 °C are back within the limits');
    expect(resumed.pl).toBe('Wznowiono: wiatr 8,5 m/s i temperatura 18 °C znów mieszczą się w limitach');
  });

  it('pauses below the frost limit and resumes 1 °C above it', () => {
    const { decision, en, pl } = decideAndTell(running({ windMs: 2, temperatureC: 1 }));
    expect(decision).toMatchObject({ kind: 'pause_frost', temperatureC: 1, minC: 2, stopsRunning: true });
    expect(en).toBe('Paused: 1 °C, below the 2 °C frost limit');
    expect(pl).toBe('Wstrzymano: 1 °C, poniżej progu przymrozku 2 °C');
    expect(decideNext(running({ windMs: 2, temperatureC: 2.5 }, 'frost')).kind).toBe('pause_frost');
    expect(decideNext(running({ windMs: 2, temperatureC: 3 }, 'frost')).kind).toBe('resume');
  });

  it('holds a due machine in the wind, and leaves an idle one that is not due alone', () => {
    const due = input({ station: { at: at('14:00'), windMs: 15, temperatureC: 18 } });
    expect(decideNext(due)).toMatchObject({ kind: 'pause_wind', stopsRunning: false });
    const idle = { ...due, areas: [area()] };
    expect(decideNext(idle).kind).toBe('not_due');
  });

  it('pauses before it skips for rain, refuses by the allowance or queues at the pump', () => {
    const given = input({
      station: { at: at('14:00'), windMs: 15, temperatureC: 18 },
      forecastRain: rain(at('15:00'), 2, 8),
      rules: rules({ allowance: { unit: 'm3', amount: 100 }, pumpGroup: { id: 'Well 1', maxAtOnce: 1 } }),
      pump: { watering: [{ id: 4, name: 'Pivot 4' }], due: [] },
    });
    expect(decideNext(given).kind).toBe('pause_wind');
  });

  it('never pauses a run the farmer started', () => {
    const given = input({ station: { at: at('14:00'), windMs: 20, temperatureC: -3 } });
    expect(decideNext({ ...given, machine: { ...given.machine, watering: 'farmer' } }).kind).toBe('watering');
    expect(explainDecision({ kind: 'watering', allowanceWarning: null }, 'pl', given.now, TIME_ZONE)).toBe(
      'Nawadnia: bez zmian',
    );
  });

  it('does not start without a recent station reading when a weather limit is set', () => {
    const stale = input({ station: { at: at('12:00'), windMs: 3, temperatureC: 18 } });
    const { decision, en, pl } = decideAndTell(stale);
    expect(decision).toMatchObject({ kind: 'refuse', reason: 'no_station' });
    expect(en).toBe('Not started: no recent wind and temperature reading from the station to check the limits against');
    expect(pl).toBe('Nie uruchomiono: brak świeżego odczytu wiatru i temperatury ze stacji, by sprawdzić limity');
    expect(decideNext({ ...stale, station: null, rules: rules({ wind: null, frost: null }) }).kind).toBe('start');
  });
});

describe('the autopilot: the farmer always wins', () => {
  /** Due now, in the cheap zone, dry and calm: everything says start, but the machine's state. */
  const tempting = (state: { online?: boolean; alarm?: boolean; openIncident?: IncidentKind | null }) => {
    const given = input({ now: at('22:00'), rules: rules(G12), areas: [area({ triggerAt: at('23:00') })] });
    return { ...given, machine: { ...given.machine, ...state } };
  };

  it.each([
    [{ online: false }, 'offline', 'Not started: the machine is offline', 'Nie uruchomiono: maszyna jest offline'],
    [{ alarm: true }, 'alarm', 'Not started: the machine reports an alarm', 'Nie uruchomiono: maszyna zgłasza alarm'],
    [
      { openIncident: 'low_pressure' as const },
      'incident',
      'Not started: open incident “Low pressure”',
      'Nie uruchomiono: otwarty incydent „Niskie ciśnienie”',
    ],
  ])('never starts a machine %o', (state, reason, english, polish) => {
    const given = tempting(state);
    expect(decideNext(tempting({})).kind).toBe('start');
    const { decision, en, pl } = decideAndTell(given);
    expect(decision).toMatchObject({ kind: 'refuse', reason });
    expect(en).toBe(english);
    expect(pl).toBe(polish);
  });

  it('refuses before anything else: wind, a pause to resume, rain, a reconcile', () => {
    const given = tempting({ alarm: true });
    const windy = { ...given, station: { at: given.now, windMs: 20, temperatureC: 18 } };
    expect(decideNext(windy)).toMatchObject({ kind: 'refuse', reason: 'alarm' });
    const paused = { ...given, machine: { ...given.machine, pausedBy: 'wind' as const } };
    expect(decideNext(paused)).toMatchObject({ kind: 'refuse', reason: 'alarm' });
    expect(decideNext({ ...given, forecastRain: rain(given.now, 3, 10) })).toMatchObject({ kind: 'refuse' });
    const lastSkip = { at: given.now - 30 * HOUR, forecastMm: 14, withinHours: 24, fallenMm: 0 };
    expect(decideNext({ ...given, lastSkip })).toMatchObject({ kind: 'refuse' });
  });
});
