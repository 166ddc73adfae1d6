import { useCallback, useSyncExternalStore } from 'react';
import { useUser } from './session';

/*
 * The farm the machines list and the activity log show (docs/roles.md), or null for all of the
 * person's farms side by side. Kept in this browser per person, so the switch holds from one
 * screen to the next and on the next visit, and someone else signing in here starts with all.
 */

const STORAGE_PREFIX = 'pivot-farm:';

/** Each person's switch made on this page where storage refused it (a private window's quota). */
const unstored = new Map<number, number | null>();
const listeners = new Set<() => void>();

function storedFarm(userId: number): number | null {
  try {
    const farmId = Number(localStorage.getItem(`${STORAGE_PREFIX}${userId}`));
    return Number.isSafeInteger(farmId) && farmId > 0 ? farmId : null;
  } catch {
    return null;
  }
}

function farmOf(userId: number): number | null {
  return unstored.has(userId) ? (unstored.get(userId) ?? null) : storedFarm(userId);
}

function tell(): void {
  for (const listener of listeners) listener();
}

/** Another tab's switch is this one's too. */
function onStorage(event: StorageEvent): void {
  if (event.key !== null && !event.key.startsWith(STORAGE_PREFIX)) return;
  tell();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

/** The farm the signed-in person switched to (null: all of them), and the switch. */
export function useCurrentFarm(): [farmId: number | null, switchTo: (farmId: number | null) => void] {
  const userId = useUser()?.id;
  const farmId = useSyncExternalStore(
    subscribe,
    () => (userId === undefined ? null : farmOf(userId)),
    () => null,
  );
  const switchTo = useCallback(
    (next: number | null) => {
      if (userId === undefined || farmOf(userId) === next) return;
      try {
        if (next === null) localStorage.removeItem(`${STORAGE_PREFIX}${userId}`);
        else localStorage.setItem(`${STORAGE_PREFIX}${userId}`, String(next));
        unstored.delete(userId);
      } catch {
        // Storage refused: the switch holds on this page only.
        unstored.set(userId, next);
      }
      tell();
    },
    [userId],
  );
  return [farmId, switchTo];
}
