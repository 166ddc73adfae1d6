import type * as SessionSchemaModule from './session-schemas';

type SessionSchemas = typeof SessionSchemaModule;

let loading: Promise<SessionSchemas> | undefined;

/** The schemas of session-schemas.ts, fetched once, when first needed (again after a failed fetch). */
export function loadSessionSchemas(): Promise<SessionSchemas> {
  loading ??= import('./session-schemas').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
