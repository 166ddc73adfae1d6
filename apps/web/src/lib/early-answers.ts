/**
 * A screen's first reads asked for before its code has come (app/routes.tsx: as soon as the
 * session's token is back), by a name of the call: the screen's own read of the same call takes
 * the answer, once, rather than asking again. Nothing here needs the screen's libraries (TanStack
 * Query comes with the screen), so the calls leave while its files are still on their way.
 */
const early = new Map<string, Promise<unknown>>();

/** Asks now, unless the same call was asked early and not taken yet. */
export function askEarly<Answer>(name: string, ask: () => Promise<Answer>): void {
  if (!early.has(name)) early.set(name, ask());
}

/** The answer of a call asked early, once; undefined when none was. */
export function takeEarly<Answer>(name: string): Promise<Answer> | undefined {
  const answer = early.get(name) as Promise<Answer> | undefined;
  early.delete(name);
  return answer;
}
