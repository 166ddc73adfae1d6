import { describe, expect, it } from 'vitest';
import {
  LOG_EVENT_PARAMS,
  LOG_EVENT_TYPES,
  type LogEntry,
  LogEntrySchema,
  LogEventTypeSchema,
  LogListResponseSchema,
  LogQuerySchema,
  logEntryContext,
  logEntryParams,
} from '../src/logs';
import { expectRejected, expectUnknownKeyRejected } from './support';

/** The 19 event types listed in docs/product.md#entities, in that order. */
const SPEC_EVENT_TYPES = [
  'sprinkler_access_granted',
  'sprinkler_access_revoked',
  'program_added',
  'program_updated',
  'program_deleted',
  'program_sent',
  'program_send_failure',
  'sprinkler_adding_unresponsive',
  'sprinkler_added',
  'sprinkler_adding_processing_error',
  'sprinkler_updated',
  'sprinkler_motion_success',
  'sprinkler_motion_failure',
  'user_created',
  'user_updated',
  'user_deleted',
  'user_password_change',
  'user_activated',
  'user_password_reset_requested',
];

function buildLogEntry(overrides: Partial<LogEntry> = {}): LogEntry {
  return {
    id: 1,
    timestamp: Date.UTC(2026, 3, 14, 6, 30),
    event: 'Maize north',
    ip: '192.0.2.10',
    details: '',
    eventType: 'program_sent',
    sprinklerName: 'Pivot 1',
    sprinklerInternalId: 'PIVOT-001',
    farmName: null,
    dealerName: null,
    unread: true,
    ...overrides,
  };
}

describe('LOG_EVENT_TYPES', () => {
  it('lists the 19 event types of the spec in its order, then the controllers’ credential events, then the incidents’, then the webhooks’, then advice’s (seasons, the depth and hours a circle at 100 %), then the backups’, then the broker’s lost accounts, then the autopilot’s decisions, then two-step sign-in’s (the app’s, then passkeys’), then the farms’, each once', () => {
    expect(new Set(LOG_EVENT_TYPES).size).toBe(LOG_EVENT_TYPES.length);
    expect(LOG_EVENT_TYPES.slice(0, 19)).toEqual(SPEC_EVENT_TYPES);
    expect(LOG_EVENT_TYPES.slice(19)).toEqual([
      'device_secret_created',
      'device_secret_replaced',
      'device_removed',
      'device_connection_refused',
      'sprinkler_alarm',
      'sprinkler_alarm_cleared',
      'sprinkler_stopped_unexpectedly',
      'sprinkler_moving_again',
      'sprinkler_offline',
      'sprinkler_back_online',
      'sprinkler_low_pressure',
      'sprinkler_pressure_restored',
      'sprinkler_water_stress',
      'sprinkler_water_stress_over',
      'sprinkler_irrigation_due',
      'sprinkler_irrigation_due_over',
      'sprinkler_autopilot_start_failed',
      'sprinkler_autopilot_started_again',
      'webhook_paused',
      'sprinkler_crop_seasons_updated',
      'sprinkler_application_depth_updated',
      'sprinkler_hours_per_circle_updated',
      'sprinkler_record_added',
      'sprinkler_record_updated',
      'sprinkler_record_removed',
      'sprinkler_autopilot_updated',
      'backup_restored',
      'backup_failed',
      'backup_overdue',
      'broker_accounts_lost',
      'sprinkler_autopilot_decision',
      'user_second_factor_enabled',
      'user_second_factor_disabled',
      'user_second_factor_reset',
      'user_recovery_code_used',
      'user_recovery_codes_renewed',
      'user_passkey_added',
      'user_passkey_removed',
      'user_passkey_used',
      'farm_created',
      'farm_renamed',
      'farm_member_added',
      'farm_member_role_changed',
      'farm_member_removed',
      'sprinkler_farm_changed',
      'farm_second_factor_required',
      'farm_second_factor_optional',
      'farm_invitation_sent',
      'farm_invitation_revoked',
      'farm_dealer_granted',
      'farm_dealer_revoked',
      'dealer_member_added',
      'dealer_member_removed',
    ]);
  });

  it('is what LogEventTypeSchema accepts', () => {
    expect(LogEventTypeSchema.options).toEqual([...LOG_EVENT_TYPES]);
    expectRejected(LogEventTypeSchema, 'sprinkler_deleted');
    expectRejected(LogEventTypeSchema, 'PROGRAM_SENT');
  });
});

describe('LOG_EVENT_PARAMS', () => {
  it('has an entry for every event type and no other', () => {
    expect(Object.keys(LOG_EVENT_PARAMS).sort()).toEqual([...LOG_EVENT_TYPES].sort());
  });

  it.each(LOG_EVENT_TYPES.map((type) => [type]))('gives %s two different parameters', (type) => {
    const params = LOG_EVENT_PARAMS[type];
    expect(params).toHaveLength(2);
    expect(params[0]).not.toBe(params[1]);
  });

  it.each([
    ['sprinkler_access_granted', ['machine', 'user']],
    ['program_sent', ['program', 'machine']],
    ['sprinkler_added', ['machine', 'actor']],
    ['sprinkler_motion_failure', ['machine', 'motion']],
    ['user_created', ['user', 'actor']],
  ] as const)('names the parameters of %s', (type, params) => {
    expect(LOG_EVENT_PARAMS[type]).toEqual(params);
  });

  it('names the machine for every sprinkler and program event', () => {
    for (const type of LOG_EVENT_TYPES) {
      const params: readonly string[] = LOG_EVENT_PARAMS[type];
      if (/^(sprinkler|program|device)_/.test(type)) expect(params, type).toContain('machine');
      else expect(params, type).not.toContain('machine');
    }
  });
});

describe('LogEntrySchema', () => {
  it('accepts an entry, with or without the machine fields', () => {
    expect(LogEntrySchema.parse(buildLogEntry())).toEqual(buildLogEntry());
    const userEvent = buildLogEntry({ eventType: 'user_created', sprinklerName: null, sprinklerInternalId: null });
    expect(LogEntrySchema.parse(userEvent)).toEqual(userEvent);
  });

  it('accepts an empty ip for events the server raised itself', () => {
    expect(LogEntrySchema.safeParse(buildLogEntry({ ip: '' })).success).toBe(true);
  });

  it.each([
    ['an unknown event type', { eventType: 'program_renamed' }],
    ['a timestamp as text', { timestamp: '2026-04-14' }],
    ['an id of zero', { id: 0 }],
    ['a missing machine name instead of null', { sprinklerName: undefined }],
    ['unread as text', { unread: 'yes' }],
    ['a null event', { event: null }],
  ])('rejects %s', (_label, overrides) => {
    expectRejected(LogEntrySchema, { ...buildLogEntry(), ...overrides });
  });

  it('is strict', () => {
    expectUnknownKeyRejected(LogEntrySchema, buildLogEntry());
  });
});

describe('logEntryParams', () => {
  it.each<[string, Partial<LogEntry>, Record<string, string>]>([
    [
      'program_sent: the program from event, the machine by name',
      { eventType: 'program_sent', event: 'Maize north' },
      { program: 'Maize north', machine: 'Pivot 1' },
    ],
    [
      'program_added: the machine by internal id when it has no name',
      { eventType: 'program_added', event: 'Wheat', sprinklerName: null },
      { program: 'Wheat', machine: 'PIVOT-001' },
    ],
    [
      'sprinkler_access_granted: the user from event',
      { eventType: 'sprinkler_access_granted', event: 'jan@example.com', details: 'ignored' },
      { machine: 'Pivot 1', user: 'jan@example.com' },
    ],
    [
      'sprinkler_motion_success: the motion from event',
      { eventType: 'sprinkler_motion_success', event: 'front' },
      { machine: 'Pivot 1', motion: 'front' },
    ],
    [
      'sprinkler_added: the actor from event',
      { eventType: 'sprinkler_added', event: 'admin@example.com', sprinklerName: null },
      { machine: 'PIVOT-001', actor: 'admin@example.com' },
    ],
    [
      'user_created: the user from event, the actor from details',
      { eventType: 'user_created', event: 'anna@example.com', details: 'admin@example.com' },
      { user: 'anna@example.com', actor: 'admin@example.com' },
    ],
    [
      'farm_member_added: the user from event, the farm by its kept name',
      { eventType: 'farm_member_added', event: 'anna@example.com', details: 'manager', farmName: 'Farm of Nowak' },
      { user: 'anna@example.com', farm: 'Farm of Nowak' },
    ],
    [
      'sprinkler_farm_changed: the machine and the farm by their kept names',
      { eventType: 'sprinkler_farm_changed', event: 'admin@example.com', farmName: 'Farm of Nowak' },
      { machine: 'Pivot 1', farm: 'Farm of Nowak' },
    ],
    [
      'user_password_reset_requested: an empty actor stays empty',
      { eventType: 'user_password_reset_requested', event: 'anna@example.com', details: '' },
      { user: 'anna@example.com', actor: '' },
    ],
  ])('%s', (_label, overrides, expected) => {
    expect(logEntryParams(buildLogEntry(overrides))).toEqual(expected);
  });

  it('gives an empty machine when the entry has neither name nor internal id', () => {
    const entry = buildLogEntry({ eventType: 'program_deleted', sprinklerName: null, sprinklerInternalId: null });
    expect(logEntryParams(entry)).toEqual({ program: 'Maize north', machine: '' });
  });

  it('prefers the name, even an empty one, to the internal id', () => {
    const entry = buildLogEntry({ eventType: 'sprinkler_updated', sprinklerName: '', event: 'admin@example.com' });
    expect(logEntryParams(entry)).toEqual({ machine: '', actor: 'admin@example.com' });
  });

  it('returns exactly the two parameters of the event type, for every type', () => {
    for (const eventType of LOG_EVENT_TYPES) {
      const params = logEntryParams(buildLogEntry({ eventType }));
      expect(Object.keys(params).sort(), eventType).toEqual([...LOG_EVENT_PARAMS[eventType]].sort());
    }
  });
});

describe('LogQuerySchema', () => {
  it('defaults to all logs on the first page', () => {
    expect(LogQuerySchema.parse({})).toEqual({ page: 1, pageSize: 25, type: 'all' });
  });

  it('takes the unread filter and coerces paging from the query string', () => {
    expect(LogQuerySchema.parse({ type: 'unread', page: '2', pageSize: '10' })).toEqual({
      type: 'unread',
      page: 2,
      pageSize: 10,
    });
  });

  it.each([
    ['an unknown filter', { type: 'read' }],
    ['a page size above 100', { pageSize: '101' }],
    ['page 0', { page: '0' }],
  ])('rejects %s', (_label, query) => {
    expectRejected(LogQuerySchema, query);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(LogQuerySchema, { type: 'all' });
  });
});

describe('LogListResponseSchema', () => {
  it('accepts the count and the entries of the page', () => {
    const list = { count: 40, data: [buildLogEntry(), buildLogEntry({ id: 2, unread: false })] };
    expect(LogListResponseSchema.parse(list)).toEqual(list);
  });

  it('rejects an invalid entry and a missing count', () => {
    expectRejected(LogListResponseSchema, { count: 1, data: [{ ...buildLogEntry(), eventType: 'x' }] });
    expectRejected(LogListResponseSchema, { data: [] });
  });
});

describe('logEntryContext', () => {
  it.each<[string, Partial<LogEntry>, string | undefined]>([
    ['a watch grant', { eventType: 'sprinkler_access_granted', details: 'watch' }, 'watch'],
    ['a control grant', { eventType: 'sprinkler_access_granted', details: 'control' }, 'control'],
    [
      'a grant written before levels',
      { eventType: 'sprinkler_access_granted', details: 'admin@example.com' },
      undefined,
    ],
    ['another event', { eventType: 'program_sent', details: 'watch' }, undefined],
    ['a depth at 100 % set', { eventType: 'sprinkler_application_depth_updated', event: '4.5' }, undefined],
    [
      'the hours a circle at 100 % learned again',
      { eventType: 'sprinkler_hours_per_circle_updated', event: '' },
      'learned',
    ],
    ['the hours a circle at 100 % set', { eventType: 'sprinkler_hours_per_circle_updated', event: '20' }, undefined],
    ['a depth at 100 % learned again', { eventType: 'sprinkler_application_depth_updated', event: '' }, 'learned'],
    ['a rain gauge recorded', { eventType: 'sprinkler_record_added', details: 'rain_gauge' }, 'rain_gauge'],
    ['a probe record removed', { eventType: 'sprinkler_record_removed', details: 'probe' }, 'probe'],
    ['a record of an unknown kind', { eventType: 'sprinkler_record_updated', details: 'hail' }, undefined],
    [
      'an autopilot set by a user',
      { eventType: 'sprinkler_autopilot_updated', event: 'auto', details: 'user' },
      undefined,
    ],
    [
      'an autopilot taken over',
      { eventType: 'sprinkler_autopilot_updated', event: 'suggest', details: 'taken_over' },
      'taken_over',
    ],
    ['a dealer granted control', { eventType: 'farm_dealer_granted', details: 'control' }, 'control'],
    ['a member added as a manager', { eventType: 'farm_member_added', details: 'manager' }, 'manager'],
    ['a member made an owner', { eventType: 'farm_member_role_changed', details: 'owner' }, 'owner'],
    ['a role the server does not know', { eventType: 'farm_member_role_changed', details: 'dealer' }, undefined],
  ])('%s', (_label, overrides, expected) => {
    expect(logEntryContext(buildLogEntry(overrides))).toBe(expected);
  });
});
