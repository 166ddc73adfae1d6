import { AutopilotPlanSchema, AutopilotSettingsBodySchema, AutopilotSettingsSchema } from '../autopilot';
import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import { AUTOPILOT_START_REFUSALS, COMMAND_FAILURES } from '../errors';
import { SprinklerDetailSchema } from '../sprinklers';

/* The autopilot (docs/autopilot.md): each machine's mode and the farm's rules for it. */
const tag = 'autopilot';

export const settings = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/autopilot/',
  params: IdParamsSchema,
  answer: AutopilotSettingsSchema,
  errors: ['sprinkler_not_found'],
  tag,
  summary: "A machine's autopilot mode and rules; a machine never set is off, with the rules' defaults",
});

export const saveSettings = endpoint({
  method: 'PUT',
  path: '/sprinkler/:id/autopilot/',
  params: IdParamsSchema,
  body: AutopilotSettingsBodySchema,
  answer: AutopilotSettingsSchema,
  errors: ['sprinkler_not_found', 'watch_only'],
  tag,
  summary: "Sets a machine's autopilot mode and rules (control); a change is written to the activity log",
});

export const plan = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/autopilot/plan/',
  params: IdParamsSchema,
  answer: AutopilotPlanSchema,
  errors: ['sprinkler_not_found'],
  tag,
  summary:
    "What a machine's autopilot decides now and the passes it would start over the coming days (sectors, when, water, cost), in the reader's language",
});

export const start = endpoint({
  method: 'POST',
  path: '/sprinkler/:id/autopilot/start/',
  params: IdParamsSchema,
  answer: SprinklerDetailSchema,
  errors: ['sprinkler_not_found', 'watch_only', ...AUTOPILOT_START_REFUSALS, ...COMMAND_FAILURES],
  tag,
  summary:
    'Waters now as advised (control): the pass the autopilot would start now, its program from the advice sent to the machine and the machine started forward, the person as its actor; answers once the machine has confirmed',
  description:
    "Refused before any command when the autopilot is off (autopilot_off), when it would start no pass now or the advice gives no program (nothing_due), when the machine is offline (sprinkler_offline), in alarm or with an open alarm, unexpected stop or low pressure (sprinkler_in_alarm), already moving (already_watering), or while a start of it is already being made (start_in_progress). The pass is the autopilot's own: it takes nothing over, and the autopilot stops the machine at the end of its revolution.",
});
