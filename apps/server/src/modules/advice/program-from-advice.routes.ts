import { adviceEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { ProgramFromAdviceService } from './program-from-advice.service';

export const programFromAdviceRoutes: FastifyPluginAsyncZod<{ programFromAdvice: ProgramFromAdviceService }> = async (
  app,
  { programFromAdvice },
) => {
  // A safe GET at either level: it stores nothing; storing the program is the programs' POST.
  endpointRoute(app, adviceEndpoints.programFromAdvice, {}, async (request) =>
    programFromAdvice.programFor(signedIn(request).user, request.params.id),
  );
};
