import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A closing server waits for the answers under way, but not for ever: a client that stopped
 * reading a download (a phone that lost signal, a cancelled file) would hold its connection,
 * and the server with it, for minutes. Whatever is still answering after the deadline is cut;
 * a command waiting for its machine's answer is never cut, since the deadline is longer than
 * the command timeout.
 */
export const closingDeadlinePlugin = fp<{ commandTimeoutMs: number }>(
  async (app: FastifyInstance, { commandTimeoutMs }) => {
    app.addHook('preClose', async () => {
      const deadline = setTimeout(() => app.server.closeAllConnections(), commandTimeoutMs + CLOSING_GRACE_MS);
      deadline.unref();
      app.server.once('close', () => clearTimeout(deadline));
    });
  },
  { name: 'closing-deadline' },
);

/** Beyond the command timeout: time for the last answers to be written. */
const CLOSING_GRACE_MS = 5_000;
