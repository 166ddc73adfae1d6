import { autopilotEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, requestLanguage, signedIn } from '../../http/request-context';
import type { AutopilotPlanService } from './autopilot-plan.service';
import type { AutopilotSettingsService } from './autopilot-settings.service';
import type { AutopilotStartService } from './autopilot-start.service';

export const autopilotRoutes: FastifyPluginAsyncZod<{
  autopilot: AutopilotSettingsService;
  plan: AutopilotPlanService;
  start: AutopilotStartService;
}> = async (app, { autopilot, plan, start }) => {
  endpointRoute(app, autopilotEndpoints.settings, {}, async (request) =>
    autopilot.settingsFor(signedIn(request).user, request.params.id),
  );

  endpointRoute(app, autopilotEndpoints.saveSettings, {}, async (request) =>
    autopilot.save(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  // Told in the page's language (Accept-Language), as the machines list is, else the account's.
  endpointRoute(app, autopilotEndpoints.plan, {}, async (request) =>
    plan.planFor({ ...signedIn(request).user, language: requestLanguage(request) }, request.params.id),
  );

  // One tap: the pass the autopilot would start now, for the person (control), as a command is sent.
  endpointRoute(app, autopilotEndpoints.start, { idempotent: true }, async (request) =>
    start.start(signedIn(request).user, request.params.id, clientInfo(request)),
  );
};
