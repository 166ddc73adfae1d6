import { usersEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, signedIn } from '../../http/request-context';
import type { UsersService } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  // The account, for the page where an administrator who must use a second factor sets it up.
  endpointRoute(app, usersEndpoints.profile, { access: 'enrolling' }, async (request) =>
    users.profile(signedIn(request).user),
  );

  endpointRoute(app, usersEndpoints.updateSelf, {}, async (request) =>
    users.updateSelf(signedIn(request).user, request.body, clientInfo(request)),
  );

  endpointRoute(app, usersEndpoints.deleteSelf, {}, async (request) => {
    const { user } = signedIn(request);
    await users.delete(user, user.id, clientInfo(request));
    return { message: 'Account deleted' };
  });

  endpointRoute(app, usersEndpoints.changePassword, {}, async (request) => {
    const { user, sessionId } = signedIn(request);
    await users.changePassword(user, sessionId, request.body, clientInfo(request));
    return { message: 'Password changed' };
  });

  const admin = { access: 'admin' } as const;
  endpointRoute(app, usersEndpoints.create, admin, async (request) =>
    users.create(signedIn(request).user, request.body, clientInfo(request)),
  );

  endpointRoute(app, usersEndpoints.update, admin, async (request) =>
    users.update(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  endpointRoute(app, usersEndpoints.remove, admin, async (request) => {
    await users.delete(signedIn(request).user, request.params.id, clientInfo(request));
    return { message: 'User deleted' };
  });
};
