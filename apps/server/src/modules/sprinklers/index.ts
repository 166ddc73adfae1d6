import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { liveRoutes } from './live.routes';
import { sprinklersRoutes } from './sprinklers.routes';
import { SprinklersService } from './sprinklers.service';

declare module 'fastify' {
  interface FastifyInstance {
    sprinklers: SprinklersService;
  }
}

export type { SprinklerRow } from './sprinklers.repository';
export { type SprinklersService, type StoredPrograms, loggedMachine } from './sprinklers.service';

/**
 * Sprinklers (machines, pivots): adding one by its broker ID, renaming it, who may see it, its
 * list form and detail with live values, motion commands, and its live event stream.
 */
export const sprinklersModule = fp(
  async (app: FastifyInstance) => {
    const { access, users, telemetry, weather, commands, logs } = app;
    const sprinklers = new SprinklersService({
      db: app.database.db,
      access,
      users,
      telemetry,
      weather,
      commands,
      logs,
    });
    app.decorate('sprinklers', sprinklers);
    await app.register(sprinklersRoutes, { prefix: '/api', sprinklers });
    await app.register(liveRoutes, { prefix: '/api', sprinklers, telemetry });
  },
  {
    name: 'sprinklers',
    dependencies: ['database', 'authentication', 'access', 'users', 'telemetry', 'weather', 'commands', 'logs'],
  },
);
