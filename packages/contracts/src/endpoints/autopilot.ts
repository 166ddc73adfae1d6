import { AutopilotPlanSchema, AutopilotSettingsBodySchema, AutopilotSettingsSchema } from '../autopilot';
import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';

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
