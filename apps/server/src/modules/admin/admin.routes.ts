import {
  IdParamsSchema,
  PermissionsBodySchema,
  SprinklerAdminListQuerySchema,
  SprinklerAdminListResponseSchema,
  SprinklerWithUsersSchema,
  UserListQuerySchema,
  UserListResponseSchema,
} from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientInfo, signedIn } from '../../http/request-context';
import type { AdminService } from './admin.service';

export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminService }> = async (app, { admin }) => {
  app.get(
    '/user/list/',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], querystring: UserListQuerySchema, response: { 200: UserListResponseSchema } },
    },
    async (request) => admin.listUsers(request.query),
  );

  app.get(
    '/sprinkler/list/',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['sprinklers'],
        querystring: SprinklerAdminListQuerySchema,
        response: { 200: SprinklerAdminListResponseSchema },
      },
    },
    async (request) => admin.listSprinklers(request.query),
  );

  app.patch(
    '/sprinkler/:id/permissions/',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['sprinklers'],
        params: IdParamsSchema,
        body: PermissionsBodySchema,
        response: { 200: SprinklerWithUsersSchema },
      },
    },
    async (request) =>
      admin.changePermissions(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );
};
