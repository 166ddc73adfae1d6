import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * A screen's first reads asked for before its code has come (app/routes.tsx: as soon as the
 * session's token is back), by a name of the call: the screen's own read of the same call takes
 * the answer, once, rather than asking again. Nothing here needs the screen's libraries (TanStack
 * Query comes with the screen), so the calls leave while its files are still on their way.
 *
 * An answer is for the page it was asked for, as it opens: one its screen has not taken by the
 * time the visitor goes to another address is dropped (useDropEarlyAnswersOnLeave), so that a
 * later visit to that page asks again rather than showing what the first answer said then.
 */
const early = new Map<string, Promise<unknown>>();

/** Asks now, unless the same call was asked early and not taken yet. */
export function askEarly<Answer>(name: string, ask: () => Promise<Answer>): void {
  if (early.has(name)) return;
  const answer = ask();
  // A call that fails and is never taken is nobody's to handle: not an unhandled rejection. The
  // screen that takes it still sees it fail.
  answer.catch(() => undefined);
  early.set(name, answer);
}

/** The answer of a call asked early, once; undefined when none was (or it was dropped). */
export function takeEarly<Answer>(name: string): Promise<Answer> | undefined {
  const answer = early.get(name) as Promise<Answer> | undefined;
  early.delete(name);
  return answer;
}

/** Drops every answer asked early and not taken. */
export function dropEarlyAnswers(): void {
  early.clear();
}

/**
 * Drops the early answers not taken once the address differs from the one the app opened at (its
 * path or its search: a machine page's range is in it). Mounted once, by the app's routes.
 */
export function useDropEarlyAnswersOnLeave(): void {
  const { pathname, search } = useLocation();
  const address = `${pathname}${search}`;
  const opened = useRef(address);
  useEffect(() => {
    if (address !== opened.current) dropEarlyAnswers();
  }, [address]);
}
