import {
  AreaMapExportSchema,
  AreaMapFileSchema,
  AreaMapImportResultSchema,
  CropSeasonListSchema,
  CropSeasonsQuerySchema,
  CropSeasonsSchema,
  IdParamsSchema,
} from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GEOMETRY_BODY_LIMIT } from '../../http/body-limits';
import { compiledSerializerCompiler } from '../../http/compiled-serializer';
import { clientInfo, signedIn } from '../../http/request-context';
import type { CropSeasonsService } from './crop-seasons.service';

const tags = ['advice'];

export const cropSeasonsRoutes: FastifyPluginAsyncZod<{ cropSeasons: CropSeasonsService }> = async (
  app,
  { cropSeasons },
) => {
  app.get(
    '/sprinkler/:id/crop-seasons/',
    { schema: { tags, params: IdParamsSchema, response: { 200: CropSeasonListSchema } } },
    async (request) => cropSeasons.list(signedIn(request).user, request.params.id),
  );

  app.put(
    '/sprinkler/:id/crop-seasons/',
    {
      schema: {
        tags,
        params: IdParamsSchema,
        querystring: CropSeasonsQuerySchema,
        body: CropSeasonsSchema,
        response: { 200: CropSeasonListSchema },
      },
    },
    async (request) =>
      cropSeasons.replace(signedIn(request).user, request.params.id, request.body, request.query, clientInfo(request)),
  );

  app.get(
    '/sprinkler/:id/area-map/',
    {
      schema: {
        tags,
        description: "The machine's area map as a GeoJSON file, each crop area with its crop seasons (docs/advice.md)",
        params: IdParamsSchema,
        response: { 200: AreaMapExportSchema },
      },
      // The map's polygons were checked on their way in: see compiled-serializer.ts.
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => cropSeasons.exportAreaMap(signedIn(request).user, request.params.id),
  );

  app.put(
    '/sprinkler/:id/area-map/',
    {
      bodyLimit: GEOMETRY_BODY_LIMIT,
      schema: {
        tags,
        description:
          "Imports an area-map file as the machine's map, with the crop seasons it carries (docs/advice.md); 400 invalid_crop_seasons when a season breaks the rules, 413 too_many_corners past 10,000 corners in all, nothing stored",
        params: IdParamsSchema,
        body: AreaMapFileSchema,
        response: { 200: AreaMapImportResultSchema },
      },
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) =>
      cropSeasons.importAreaMap(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );
};
