import {
  ChangePasswordBodySchema,
  CreateUserBodySchema,
  IdParamsSchema,
  MessageResponseSchema,
  PasswordCallErrorSchema,
  UpdateSelfBodySchema,
  UpdateUserBodySchema,
  UserSchema,
} from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientInfo, signedIn } from '../../http/request-context';
import type { UsersService } from './users.service';

const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get('/user/', { schema: { tags, response: { 200: UserSchema } } }, async (request) =>
    users.profile(signedIn(request).user),
  );

  app.patch(
    '/user/',
    { schema: { tags, body: UpdateSelfBodySchema, response: { 200: UserSchema } } },
    async (request) => users.updateSelf(signedIn(request).user, request.body, clientInfo(request)),
  );

  app.delete('/user/', { schema: { tags, response: { 200: MessageResponseSchema } } }, async (request) => {
    const { user } = signedIn(request);
    await users.delete(user, user.id, clientInfo(request));
    return { message: 'Account deleted' };
  });

  app.post(
    '/user/password/',
    {
      schema: {
        tags,
        body: ChangePasswordBodySchema,
        response: { 200: MessageResponseSchema, 400: PasswordCallErrorSchema },
      },
    },
    async (request) => {
      const { user, sessionId } = signedIn(request);
      await users.changePassword(user, sessionId, request.body, clientInfo(request));
      return { message: 'Password changed' };
    },
  );

  app.post(
    '/user/',
    { config: { access: 'admin' }, schema: { tags, body: CreateUserBodySchema, response: { 201: UserSchema } } },
    async (request, reply) => {
      const created = await users.create(signedIn(request).user, request.body, clientInfo(request));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/user/:id/',
    {
      config: { access: 'admin' },
      schema: { tags, params: IdParamsSchema, body: UpdateUserBodySchema, response: { 200: UserSchema } },
    },
    async (request) => users.update(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  app.delete(
    '/user/:id/',
    { config: { access: 'admin' }, schema: { tags, params: IdParamsSchema, response: { 200: MessageResponseSchema } } },
    async (request) => {
      await users.delete(signedIn(request).user, request.params.id, clientInfo(request));
      return { message: 'User deleted' };
    },
  );
};
