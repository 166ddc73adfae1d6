import { ERROR_STATUS, type ErrorBody, type PasswordError, polygonProblemOf } from '@pivot/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, PasswordRejectedError } from '../errors';
import { issueMessage } from '../http/localised-validation';
import { requestLanguage } from '../http/request-context';
import { errorMessage, passwordMessage } from '../i18n/messages';

/** One place turns every error into its answer: known codes keep their status, the rest hide their details. */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(request);
    // Fastify refuses a body over the route's limit (http/body-limits.ts) before parsing it.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const body: ErrorBody = { code: 'payload_too_large', message: errorMessage('payload_too_large', language) };
      return reply.status(ERROR_STATUS.payload_too_large).send(body);
    }
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      const body: ErrorBody = { code: error.code, message: errorMessage(error.code, language) };
      if (error.issues) body.issues = error.issues;
      return reply.status(error.status).headers(error.headers).send(body);
    }
    if (error instanceof PasswordRejectedError) {
      const body: PasswordError = { code: 'password_rejected', message: errorMessage('password_rejected', language) };
      for (const [field, problems] of Object.entries(error.fields)) {
        if (problems.length > 0)
          body[field as keyof typeof error.fields] = problems.map((problem) => passwordMessage(problem, language));
      }
      return reply.status(400).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issueMessage(issue, language),
      }));
      // A body refused only for the shape of its polygons gets a code of its own: the client can tell the farmer what to redraw.
      const geometryOnly =
        issues.length > 0 && error.validation.every((issue) => polygonProblemOf(issue.message ?? ''));
      const code = geometryOnly ? 'invalid_geometry' : 'validation_error';
      const body: ErrorBody = { code, message: errorMessage(code, language), issues };
      return reply.status(ERROR_STATUS[code]).send(body);
    }
    const clientError =
      !isResponseSerializationError(error) &&
      error.statusCode !== undefined &&
      error.statusCode >= 400 &&
      error.statusCode < 500;
    if (clientError) {
      const body: ErrorBody = { code: 'validation_error', message: errorMessage('validation_error', language) };
      return reply.status(error.statusCode!).send(body);
    }
    request.log.error({ err: error }, 'request failed');
    const body: ErrorBody = { code: 'internal_error', message: errorMessage('internal_error', language) };
    return reply.status(500).send(body);
  });
});
