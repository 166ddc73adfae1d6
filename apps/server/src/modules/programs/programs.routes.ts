import { MAX_PRESCRIPTION_FILE_BYTES, programsEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GEOMETRY_BODY_LIMIT } from '../../http/body-limits';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, signedIn } from '../../http/request-context';
import type { PrescriptionService } from './prescription.service';
import type { ProgramsService } from './programs.service';

/**
 * A program's sectors: up to 500 polygons, drawn or imported from a GIS file; the detail's
 * polygons were checked on their way in (compiled-serializer.ts).
 */
const geometry = { bodyLimit: GEOMETRY_BODY_LIMIT, compiledAnswer: true } as const;

/** A prescription's file, base64: a third larger than the file itself, with room for the rest of the body. */
const PRESCRIPTION_BODY_LIMIT = Math.ceil(MAX_PRESCRIPTION_FILE_BYTES / 3) * 4 + 64 * 1024;

export const programsRoutes: FastifyPluginAsyncZod<{
  programs: ProgramsService;
  prescriptions: PrescriptionService;
}> = async (app, { programs, prescriptions }) => {
  endpointRoute(app, programsEndpoints.create, { ...geometry, idempotent: true }, async (request) =>
    programs.create(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  endpointRoute(app, programsEndpoints.update, geometry, async (request) => {
    const { id, programId } = request.params;
    return programs.update(signedIn(request).user, id, programId, request.body, clientInfo(request));
  });

  endpointRoute(app, programsEndpoints.remove, {}, async (request) => {
    const { id, programId } = request.params;
    return programs.delete(signedIn(request).user, id, programId, clientInfo(request));
  });

  endpointRoute(app, programsEndpoints.send, { idempotent: true }, async (request) => {
    const { id, programId } = request.params;
    return programs.send(signedIn(request).user, id, programId, clientInfo(request));
  });

  endpointRoute(app, programsEndpoints.prescription, { bodyLimit: PRESCRIPTION_BODY_LIMIT }, async (request) =>
    prescriptions.preview(signedIn(request).user, request.params.id, request.body),
  );
};
