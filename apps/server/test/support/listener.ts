import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedRequest = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  receivedAt: number;
};

/**
 * A plain http receiver on 127.0.0.1 standing in for a webhook's receiver (Slack, a relay): it
 * keeps what it is sent and answers as `answer` says (200 by default); `answer` may also never
 * answer, redirect or stream without end.
 */
export async function startListener(
  answer: (request: ReceivedRequest, response: http.ServerResponse) => void = (_, response) =>
    response.writeHead(200).end('ok'),
) {
  const received: ReceivedRequest[] = [];
  const waiting = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      received.push(entry);
      waiting.add(response);
      response.on('close', () => waiting.delete(response));
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      for (const response of waiting) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
