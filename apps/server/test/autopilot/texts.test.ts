import { describe, expect, it } from 'vitest';
import { AUTOPILOT_TEXT_CODES, autopilotText } from '../../src/i18n/messages';
import { type Decision, explainDecision, spokenMoment } from '../../src/modules/autopilot';
import { NEXT_DAY, TIME_ZONE, at } from './fixtures';

const moment = { day: 'tomorrow', date: '16.07', time: '09:00' } as const;
/** Every parameter a text may name, so each code can be written out in both languages. */
const SAMPLE = {
  at: moment,
  until: moment,
  due: moment,
  trigger: moment,
  zone: { tariff: 'G12', zone: 'night' },
  late: true,
  price: 0.6,
  priceNow: 1.1,
  currency: 'PLN',
  rainMm: 14,
  withinHours: 24,
  depletionMm: 38,
  rawMm: 52,
  forecastMm: 14,
  fallenMm: 2,
  then: '…',
  windMs: 12,
  maxMs: 10,
  temperatureC: 1,
  minC: 2,
  pump: 'Well 1',
  incident: 'Low pressure',
  maxAtOnce: 5,
  ahead: ['Pivot 2'],
  pass: 800,
  left: 700,
  used: 9300,
  amount: 10_000,
  unit: 'm3',
  share: 93,
  wouldPass: true,
} as const;

describe('the autopilot’s texts', () => {
  it('has every code in Polish and in English, each its own', () => {
    expect(AUTOPILOT_TEXT_CODES.length).toBe(18);
    for (const code of AUTOPILOT_TEXT_CODES) {
      const write = autopilotText as (code: string, language: 'pl' | 'en', params: typeof SAMPLE) => string;
      const english = write(code, 'en', SAMPLE);
      const polish = write(code, 'pl', SAMPLE);
      expect(english, code).not.toBe('');
      expect(polish, code).not.toBe(english);
      expect(`${english} ${polish}`, code).not.toMatch(/undefined|NaN|\[object/);
    }
  });

  it('writes Polish plurals and numbers as Polish does', () => {
    const queue = (maxAtOnce: number) => autopilotText('queue_pump', 'pl', { pump: 'P', maxAtOnce, ahead: ['A'] });
    expect([1, 2, 4, 5, 12, 22, 25].map((count) => queue(count).split('najwyżej ')[1]!.split(' naraz')[0])).toEqual([
      '1 maszynę',
      '2 maszyny',
      '4 maszyny',
      '5 maszyn',
      '12 maszyn',
      '22 maszyny',
      '25 maszyn',
    ]);
    expect(autopilotText('pause_frost', 'pl', { temperatureC: -1.5, minC: 0.5 })).toBe(
      'Wstrzymano: -1,5 °C, poniżej progu przymrozku 0,5 °C',
    );
  });

  it('tells a moment as today’s, tomorrow’s or another day’s', () => {
    const now = at('14:00');
    expect(spokenMoment(at('22:00'), now, TIME_ZONE)).toEqual({ day: 'today', date: '15.07', time: '22:00' });
    expect(spokenMoment(at('09:00', NEXT_DAY), now, TIME_ZONE)).toEqual({
      day: 'tomorrow',
      date: '16.07',
      time: '09:00',
    });
    const later = spokenMoment(at('07:30', '2026-07-18'), now, TIME_ZONE);
    expect(autopilotText('not_due', 'en', { trigger: later, depletionMm: null, rawMm: null })).toBe(
      'Not due: the first area needs water at 07:30 on 18.07',
    );
    expect(autopilotText('not_due', 'pl', { trigger: later, depletionMm: null, rawMm: null })).toBe(
      'Jeszcze nie trzeba nawadniać: pierwszy obszar potrzebuje wody od: 18.07 07:30',
    );
  });

  it('says a resume with no weather limit left', () => {
    const decision: Decision = { kind: 'resume', windMs: null, temperatureC: null, allowanceWarning: null };
    expect(explainDecision(decision, 'en', at('14:00'), TIME_ZONE)).toBe(
      'Resumed: no weather limit holds the machine any longer',
    );
    expect(explainDecision(decision, 'pl', at('14:00'), TIME_ZONE)).toBe(
      'Wznowiono: żaden limit pogodowy już nie wstrzymuje maszyny',
    );
  });
});
