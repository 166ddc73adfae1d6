import { dealersEndpoints, farmsEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, requestLanguage, signedIn } from '../../http/request-context';
import type { DealersService } from './dealers.service';
import type { FarmInvitations } from './farm-invitations.service';
import type { FarmsService } from './farms.service';

export const farmsRoutes: FastifyPluginAsync<{
  farms: FarmsService;
  invitations: FarmInvitations;
  dealers: DealersService;
}> = async (app, { farms, invitations, dealers }) => {
  endpointRoute(app, farmsEndpoints.list, {}, async (request) => farms.list(signedIn(request).user));

  endpointRoute(app, farmsEndpoints.switchable, {}, async (request) => farms.switchable(signedIn(request).user));

  endpointRoute(app, farmsEndpoints.create, { access: 'admin' }, async (request) =>
    farms.create(signedIn(request).user, request.body, clientInfo(request)),
  );

  endpointRoute(app, farmsEndpoints.rename, {}, async (request) =>
    farms.rename(signedIn(request).user, request.params.farmId, request.body, clientInfo(request)),
  );

  endpointRoute(app, farmsEndpoints.requireSecondFactor, {}, async (request) =>
    farms.requireSecondFactor(
      signedIn(request).user,
      request.params.farmId,
      request.body.required,
      clientInfo(request),
    ),
  );

  endpointRoute(app, farmsEndpoints.detail, {}, async (request) =>
    farms.detail(signedIn(request).user, request.params.farmId),
  );

  endpointRoute(app, farmsEndpoints.addMember, { access: 'admin' }, async (request) =>
    farms.addMember(signedIn(request).user, request.params.farmId, request.body, clientInfo(request)),
  );

  endpointRoute(app, farmsEndpoints.changeRole, {}, async (request) => {
    const { farmId, userId } = request.params;
    return farms.changeRole(signedIn(request).user, farmId, userId, request.body.role, clientInfo(request));
  });

  endpointRoute(app, farmsEndpoints.removeMember, {}, async (request) =>
    farms.removeMember(signedIn(request).user, request.params.farmId, request.params.userId, clientInfo(request)),
  );

  endpointRoute(app, farmsEndpoints.moveMachine, { access: 'admin' }, async (request) =>
    farms.moveMachine(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  endpointRoute(app, farmsEndpoints.invitations, {}, async (request) =>
    invitations.list(signedIn(request).user, request.params.farmId),
  );

  endpointRoute(app, farmsEndpoints.invite, {}, async (request) =>
    invitations.invite(
      signedIn(request).user,
      request.params.farmId,
      request.body,
      requestLanguage(request),
      clientInfo(request),
    ),
  );

  endpointRoute(app, farmsEndpoints.resendInvitation, {}, async (request) =>
    invitations.resend(signedIn(request).user, request.params.farmId, request.params.invitationId, clientInfo(request)),
  );

  endpointRoute(app, farmsEndpoints.revokeInvitation, {}, async (request) =>
    invitations.revoke(signedIn(request).user, request.params.farmId, request.params.invitationId, clientInfo(request)),
  );

  // The mailed link's page: its token is the proof, before signing in.
  endpointRoute(app, farmsEndpoints.previewInvitation, { access: 'public' }, async (request) =>
    invitations.preview(request.params.id, request.query.token),
  );

  endpointRoute(app, farmsEndpoints.acceptInvitation, { access: 'public' }, async (request) =>
    invitations.accept(request.params.id, request.body, clientInfo(request)),
  );

  endpointRoute(app, dealersEndpoints.list, {}, async () => dealers.list());

  endpointRoute(app, dealersEndpoints.create, { access: 'admin' }, async (request) =>
    dealers.create(request.body.name),
  );

  endpointRoute(app, dealersEndpoints.members, { access: 'admin' }, async (request) =>
    dealers.members(request.params.dealerId),
  );

  endpointRoute(app, dealersEndpoints.addMember, { access: 'admin' }, async (request) =>
    dealers.addMember(signedIn(request).user, request.params.dealerId, request.body.email, clientInfo(request)),
  );

  endpointRoute(app, dealersEndpoints.removeMember, { access: 'admin' }, async (request) => {
    const { dealerId, userId } = request.params;
    return dealers.removeMember(signedIn(request).user, dealerId, userId, clientInfo(request));
  });

  endpointRoute(app, dealersEndpoints.fleet, {}, async (request) => dealers.fleet(signedIn(request).user));

  endpointRoute(app, dealersEndpoints.farmGrants, {}, async (request) =>
    dealers.farmGrants(signedIn(request).user, request.params.farmId),
  );

  endpointRoute(app, dealersEndpoints.grant, {}, async (request) => {
    const { farmId, dealerId } = request.params;
    return dealers.grant(signedIn(request).user, farmId, dealerId, request.body, clientInfo(request));
  });

  endpointRoute(app, dealersEndpoints.revoke, {}, async (request) =>
    dealers.revoke(signedIn(request).user, request.params.farmId, request.params.dealerId, clientInfo(request)),
  );
};
