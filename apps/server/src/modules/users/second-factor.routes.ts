import { secondFactorEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, requestLanguage, signedIn } from '../../http/request-context';
import type { SecondFactorService } from './second-factor.service';

const TURNED_OFF = {
  en: 'Two-step sign-in is off.',
  pl: 'Logowanie dwuetapowe jest wyłączone.',
} as const;

/** The signed-in user's second factor, and an administrator's reset of anyone's (docs/two-factor.md). */
export const secondFactorRoutes: FastifyPluginAsyncZod<{ secondFactor: SecondFactorService }> = async (
  app,
  { secondFactor },
) => {
  // What an administrator who must use a second factor and has none may still reach: its set-up.
  const enrolling = { access: 'enrolling' } as const;
  endpointRoute(app, secondFactorEndpoints.status, enrolling, async (request) =>
    secondFactor.status(signedIn(request).user),
  );

  endpointRoute(app, secondFactorEndpoints.setup, enrolling, async (request) =>
    secondFactor.setup(signedIn(request).user, request.body.password),
  );

  endpointRoute(app, secondFactorEndpoints.confirm, enrolling, async (request) =>
    secondFactor.confirm(signedIn(request).user, request.body.code, clientInfo(request)),
  );

  endpointRoute(app, secondFactorEndpoints.disable, {}, async (request) => {
    await secondFactor.disable(signedIn(request).user, request.body.password, clientInfo(request));
    return { message: TURNED_OFF[requestLanguage(request)] };
  });

  endpointRoute(app, secondFactorEndpoints.recoveryCodes, {}, async (request) =>
    secondFactor.renewRecoveryCodes(signedIn(request).user, request.body.password, clientInfo(request)),
  );

  endpointRoute(app, secondFactorEndpoints.reset, { access: 'admin' }, async (request) => {
    await secondFactor.reset(signedIn(request).user, request.params.id, clientInfo(request));
    return { message: TURNED_OFF[requestLanguage(request)] };
  });
};
