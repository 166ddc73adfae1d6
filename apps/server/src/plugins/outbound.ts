import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { OutboundGuard } from '../http/outbound';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every request to an address a user chose goes through it (webhooks, Web Push). */
    outbound: OutboundGuard;
  }
}

/** The outbound-request guard (http/outbound.ts), with the hosts the operator allowed. */
export const outboundPlugin = fp(
  async (app: FastifyInstance, options: Pick<Config, 'outboundAllowedHosts'> & { ca?: string | Buffer }) => {
    app.decorate(
      'outbound',
      new OutboundGuard({ allowedHosts: options.outboundAllowedHosts, ...(options.ca ? { ca: options.ca } : {}) }),
    );
  },
  { name: 'outbound' },
);
