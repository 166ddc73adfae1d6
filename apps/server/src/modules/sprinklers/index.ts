import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { liveRoutes } from './live.routes';
import { MachineArms } from './machine-arms';
import { MachineListStreams } from './machine-list-streams';
import { sprinklersRoutes } from './sprinklers.routes';
import { SprinklersService } from './sprinklers.service';

declare module 'fastify' {
  interface FastifyInstance {
    sprinklers: SprinklersService;
  }
}

export { type SprinklerRow, areaMapDigests } from './sprinklers.repository';
export { type AreaPolygon, areaMapPolygons } from './area-map';
export { type SprinklersService, type StoredPrograms, loggedMachine } from './sprinklers.service';

/**
 * Sprinklers (machines, pivots): adding one by its broker ID, renaming it, who may see it, its
 * list form and detail with live values, motion commands, and its live event stream; and each
 * machine's arm, which no report of it may reach beyond.
 */
export const sprinklersModule = fp(
  async (app: FastifyInstance) => {
    const { access, users, openStreams, telemetry, weather, commands, logs } = app;
    // Read now, before the gateway subscribes on ready: the first reports are judged by the table.
    const arms = new MachineArms({ db: app.database.db, logger: app.log });
    await arms.start();
    app.gateway.knowArms(arms);
    app.addHook('onClose', async () => arms.stop());
    const listStreams = new MachineListStreams({ db: app.database.db, access, telemetry, logger: app.log });
    listStreams.start();
    app.addHook('onClose', async () => listStreams.stop());
    const sprinklers = new SprinklersService({
      db: app.database.db,
      access,
      users,
      telemetry,
      weather,
      commands,
      logs,
      arms,
      listStreams,
      openStreams,
    });
    app.decorate('sprinklers', sprinklers);
    await app.register(sprinklersRoutes, { prefix: '/api', sprinklers });
    await app.register(liveRoutes, { prefix: '/api', sprinklers, telemetry, listStreams, guard: openStreams });
  },
  {
    name: 'sprinklers',
    dependencies: [
      'database',
      'machine-gateway',
      'authentication',
      'access',
      'users',
      'telemetry',
      'weather',
      'commands',
      'logs',
    ],
  },
);
