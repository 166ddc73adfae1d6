/**
 * Calls back in the browser's next idle moment, or after `timeoutMs` if none comes by then
 * (a browser without idle callbacks calls back after the current task).
 */
export function whenIdle(callback: () => void, timeoutMs: number): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => callback(), { timeout: timeoutMs });
  else setTimeout(callback, 0);
}
