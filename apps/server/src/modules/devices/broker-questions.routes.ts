import { type BrokerAclRule, brokerEndpoints, machinePermissions, topics } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors';
import type { BrokerIdentity, BrokerPolicy } from '../../gateway/broker-policy';
import { endpointRoute } from '../../http/endpoint-route';
import { bearerToken } from '../../http/request-context';
import { sameSecret } from '../../secrets';

/**
 * A controller's permissions in EMQX's ACL form, checked before any other authorizer: its own
 * topics, its own commands spelled out (`eq`: no wildcard), and nothing else.
 */
function aclOf(machineId: string): BrokerAclRule[] {
  const { publish } = machinePermissions(machineId);
  return [
    ...publish.map((topic) => ({ permission: 'allow' as const, action: 'publish' as const, topic })),
    { permission: 'allow', action: 'subscribe', topic: `eq ${topics.commands(machineId)}` },
    { permission: 'deny', action: 'all', topic: '#' },
    { permission: 'deny', action: 'all', topic: '$SYS/#' },
  ];
}

/**
 * EMQX 5's HTTP authentication and authorization (docs/operations.md shows its configuration):
 * the broker asks at every connection, and for every publish and subscription it has not cached.
 * Only a caller with the shared secret gets an answer.
 */
export const brokerQuestionsRoutes: FastifyPluginAsyncZod<{ policy: BrokerPolicy; secret: string }> = async (
  app,
  { policy, secret },
) => {
  const config = { access: 'public' as const, csrf: false as const };
  app.addHook('onRequest', async (request) => {
    const given = bearerToken(request.headers.authorization);
    if (!given || !sameSecret(given, secret)) throw new AppError('unauthorized');
  });

  endpointRoute(app, brokerEndpoints.authenticate, config, async (request) => {
    const { clientid, username, password, peerhost } = request.body;
    const identity = await policy.authenticate({
      clientId: clientid,
      username,
      password,
      address: peerhost ?? '',
    });
    if (!identity) return { result: 'deny' as const, is_superuser: false };
    if (identity.kind === 'server') return { result: 'allow' as const, is_superuser: false };
    return { result: 'allow' as const, is_superuser: false, acl: aclOf(identity.machineId) };
  });

  endpointRoute(app, brokerEndpoints.authorize, config, async (request) => {
    const { clientid, username, topic, action } = request.body;
    const identity = identityOf(policy, clientid, username);
    const allowed =
      action === 'publish'
        ? policy.mayPublish(identity, topic)
        : action === 'subscribe'
          ? policy.maySubscribe(identity, topic)
          : policy.mayPublish(identity, topic) && policy.maySubscribe(identity, topic);
    return { result: allowed ? ('allow' as const) : ('deny' as const) };
  });
};

/**
 * EMQX asks about clients it has already authenticated (through the endpoint above), so the
 * username names the identity; a controller's client id is its machine ID, or it gets nothing.
 */
function identityOf(policy: BrokerPolicy, clientId: string, username: string | undefined): BrokerIdentity | undefined {
  if (username === undefined) return undefined;
  if (username === policy.server.username) return { kind: 'server' };
  return clientId === username && policy.admits(username) ? { kind: 'machine', machineId: username } : undefined;
}
