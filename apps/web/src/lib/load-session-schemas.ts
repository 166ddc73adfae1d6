import type * as SessionSchemaModule from './session-schemas';

type SessionSchemas = typeof SessionSchemaModule;

let loading: Promise<SessionSchemas> | undefined;

/** The schemas of session-schemas.ts, fetched once, when first needed. */
export function loadSessionSchemas(): Promise<SessionSchemas> {
  loading ??= import('./session-schemas');
  return loading;
}
