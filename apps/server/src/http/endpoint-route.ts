import {
  type AnyEndpoint,
  ERROR_STATUS,
  type EndpointAnswer,
  type EndpointBody,
  type EndpointParams,
  type EndpointQuery,
  ErrorBodySchema,
  type ErrorCode,
  PasswordErrorSchema,
} from '@pivot/contracts';
import { type ZodNull, type ZodType, z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { compiledSerializerCompiler } from './compiled-serializer';
import { sendWithETag } from './etag';
import type { Access } from './request-context';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's declaration the route was registered from (the OpenAPI document reads its errors). */
    endpoint?: AnyEndpoint;
  }
}

/** What the server adds to a declaration: who may call it, and how it is carried out. */
export type EndpointRouteOptions = {
  /** Who may call it; a signed-in user when not said (plugins/authentication.ts). */
  access?: Access;
  /** A retry with the same Idempotency-Key gets the first answer (modules/idempotency). */
  idempotent?: true;
  /** A body larger than the server's small default (http/body-limits.ts). */
  bodyLimit?: number;
  /**
   * The answer written by a serializer compiled from its schema, without checking it again: for
   * a large answer whose polygons were checked on their way in (compiled-serializer.ts).
   */
  compiledAnswer?: true;
  /**
   * The answer compiled as above and sent with an ETag: a GET browsers ask again and again
   * answers 304 when nothing changed (etag.ts).
   */
  etag?: true;
  /**
   * The handler returns the answer's JSON text, written as the answer's schema says by the
   * database (a dealer's 10,000 machines): sent as it is, and with `etag` tagged from it.
   */
  jsonText?: true;
  /** A route that servers call, not browsers (the broker's questions): no CSRF check (request-context.ts). */
  csrf?: false;
};

export type EndpointRequest<E extends AnyEndpoint> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
}>;

/**
 * A route's own work: the access check and the service call. It returns the answer the
 * declaration describes, as the schema's output (the serialiser encodes it: a number a codec
 * writes as text stays a number here), or its JSON text where the route says `jsonText`, or
 * anything, which is not sent, for a 204 (its answer is NoContentSchema) and for an answer that
 * is not JSON (a stream), which it writes itself.
 */
export type EndpointHandler<E extends AnyEndpoint, Options extends EndpointRouteOptions = EndpointRouteOptions> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<
  Options extends { jsonText: true }
    ? string
    : [NonNullable<E['answer']>] extends [never] | [ZodNull]
      ? unknown
      : EndpointAnswer<E>
>;

/**
 * Registers the route an endpoint's declaration describes: its method and path, the schemas
 * that parse its input and its answer, and its place in the OpenAPI document.
 */
export function endpointRoute<E extends AnyEndpoint, Options extends EndpointRouteOptions>(
  app: FastifyInstance,
  endpoint: E,
  options: Options,
  handler: EndpointHandler<E, Options>,
): void {
  const { bodyLimit, compiledAnswer, etag, jsonText, ...config }: EndpointRouteOptions = options;
  const status = endpoint.status ?? 200;
  const schema: FastifySchema & Record<string, unknown> = {
    ...(endpoint.hidden ? { hide: true } : {}),
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    ...(endpoint.answer ? { response: { [status]: endpoint.answer } } : {}),
    ...(endpoint.produces ? { produces: [endpoint.produces] } : {}),
  };
  // The JSON an ETag is taken from, unless the handler gives it.
  const serialize =
    etag && endpoint.answer && !jsonText ? compiledSerializerCompiler({ schema: endpoint.answer }) : undefined;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: { ...config, endpoint },
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    ...(compiledAnswer ? { serializerCompiler: compiledSerializerCompiler } : {}),
    schema,
    handler: async (request, reply) => {
      const answer = await handler(request as EndpointRequest<E>, reply);
      // An answer that is not JSON (an event stream, a file) was written by the handler.
      if (!endpoint.answer) return answer;
      const json = jsonText ? (answer as string) : serialize?.(answer);
      if (json !== undefined && etag) return sendWithETag(request, reply, json);
      if (json !== undefined) return reply.status(status).type('application/json; charset=utf-8').send(json);
      if (status === 204) return reply.status(204).send(null);
      return reply.status(status).send(answer);
    },
  });
}

/** A response of the OpenAPI document, with its content type said (fastify-type-provider-zod's form). */
type DocumentedResponse = { description: string; content: Record<string, { schema: ZodType }> };

/**
 * What the OpenAPI document adds to a declared route's own schemas, which the route does not
 * check: the errors it declares, each status with its codes (the error handler writes them), and
 * the answer of a stream, which its handler writes itself.
 */
export function documentedResponses(endpoint: AnyEndpoint): Record<number, DocumentedResponse> {
  const codesByStatus = new Map<number, [ErrorCode, ...ErrorCode[]]>();
  for (const code of endpoint.errors) {
    const status = ERROR_STATUS[code];
    const codes = codesByStatus.get(status);
    if (codes) codes.push(code);
    else codesByStatus.set(status, [code]);
  }
  const responses: Record<number, DocumentedResponse> = {};
  for (const [status, codes] of codesByStatus) {
    const body = ErrorBodySchema.extend({ code: z.enum(codes) });
    // A rejected password answers with its problems per field (PasswordErrorSchema).
    const schema = codes.includes('password_rejected') ? z.union([PasswordErrorSchema, body]) : body;
    responses[status] = { description: codes.join(', '), content: { 'application/json': { schema } } };
  }
  if (!endpoint.answer && endpoint.produces) {
    responses[endpoint.status ?? 200] = {
      description: endpoint.summary,
      content: { [endpoint.produces]: { schema: z.string() } },
    };
  }
  return responses;
}
