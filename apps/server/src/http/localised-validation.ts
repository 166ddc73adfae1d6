import { type Language, ZOD_ERROR_MAPS, contractMessage } from '@pivot/contracts';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { type $ZodType, safeParse } from 'zod/v4/core';

/** Where an issue of a refused request keeps its message in each language. */
const LOCALISED = Symbol('localised messages');

type LocalisedIssue = { params?: { [LOCALISED]?: Partial<Record<Language, string>> } };

/**
 * fastify-type-provider-zod's validator, whose refusals also carry each issue's message in Polish
 * (zod's own in Polish, a message the contracts wrote in the Polish `contractMessage` gives):
 * the validator does not know the request, so the error handler picks the message of the
 * request's language (`issueMessage`). zod's global locale stays English, as several requests run
 * at once; the Polish parse runs only for a request already refused.
 */
export const localisedValidatorCompiler: FastifySchemaCompiler<$ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => {
    // zod's validator answers a value or the issues, never a bare boolean or a promise.
    const result = validate(data) as { error?: FastifySchemaValidationError[]; value?: unknown };
    if (!Array.isArray(result.error)) return result;
    const polish = safeParse(route.schema, data, { error: ZOD_ERROR_MAPS.pl }).error?.issues ?? [];
    result.error.forEach((issue, index) => {
      // A message the contracts wrote themselves is English in both parses: its Polish, if listed.
      const polishMessage = polish[index]?.message;
      const message = polishMessage === undefined ? undefined : contractMessage(polishMessage, 'pl');
      // The same input parsed again gives the same issues in the same order.
      if (message !== undefined) ((issue as LocalisedIssue).params ??= {})[LOCALISED] = { pl: message };
    });
    return result;
  };
};

/** An issue's message in the language asked for; English (zod's, or the contract's own) otherwise. */
export function issueMessage(issue: { message?: string } & LocalisedIssue, language: Language): string {
  return issue.params?.[LOCALISED]?.[language] ?? issue.message ?? '';
}
