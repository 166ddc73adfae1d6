import { secondFactorEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, requestLanguage, signedIn } from '../../http/request-context';
import type { PasskeyService } from './passkeys.service';

const REMOVED = { en: 'The passkey is removed.', pl: 'Klucz dostępu został usunięty.' } as const;

/** The signed-in user's passkeys, and the passkey prompt of a sign-in's second step (docs/two-factor.md#passkeys). */
export const passkeyRoutes: FastifyPluginAsyncZod<{ passkeys: PasskeyService }> = async (app, { passkeys }) => {
  endpointRoute(app, secondFactorEndpoints.passkeySignInOptions, { access: 'public' }, async (request) =>
    passkeys.signInOptions(request.body.challenge),
  );

  // A passkey is a second factor: one who must set one up and has none may make one.
  const enrolling = { access: 'enrolling' } as const;
  endpointRoute(app, secondFactorEndpoints.passkeys, enrolling, async (request) =>
    passkeys.list(signedIn(request).user),
  );

  endpointRoute(app, secondFactorEndpoints.passkeyRegistrationOptions, enrolling, async (request) =>
    passkeys.registrationOptions(signedIn(request).user, request.body.password),
  );

  endpointRoute(app, secondFactorEndpoints.addPasskey, enrolling, async (request) =>
    passkeys.register(signedIn(request).user, request.body, clientInfo(request)),
  );

  endpointRoute(app, secondFactorEndpoints.removePasskey, {}, async (request) => {
    await passkeys.remove(signedIn(request).user, request.params.id, clientInfo(request));
    return { message: REMOVED[requestLanguage(request)] };
  });
};
