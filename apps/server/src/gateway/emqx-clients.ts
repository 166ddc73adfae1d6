import type { FastifyBaseLogger } from 'fastify';

export type EmqxApi = { url: string; key: string; secret: string };

/**
 * Drops a controller's live connection through EMQX 5's REST API (`DELETE /api/v5/clients/{id}`,
 * with an API key): EMQX asks the server only when a client connects, so after a new secret or a
 * removal the old connection would otherwise stay. A client that is not connected is no error.
 */
export function emqxDisconnector(api: EmqxApi, logger: FastifyBaseLogger): (machineId: string) => Promise<void> {
  const authorization = `Basic ${Buffer.from(`${api.key}:${api.secret}`).toString('base64')}`;
  const base = api.url.replace(/\/+$/, '');
  return async (machineId) => {
    try {
      const response = await fetch(`${base}/api/v5/clients/${encodeURIComponent(machineId)}`, {
        method: 'DELETE',
        headers: { authorization },
        signal: AbortSignal.timeout(5000),
      });
      if (response.ok || response.status === 404) return;
      logger.warn({ machineId, status: response.status }, 'EMQX did not disconnect the controller');
    } catch (error) {
      logger.warn({ err: error, machineId }, 'EMQX could not be asked to disconnect the controller');
    }
  };
}
