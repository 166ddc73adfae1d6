import { expect, it } from 'vitest';
import { registerController } from '../support/devices';
import { useTestApp } from '../support/test-app';

const t = useTestApp();

/**
 * Each registration tells every instance that the controllers changed, and each reads them
 * again: a burst of registrations (an import of a fleet, bench:fleet) must leave every new
 * controller admitted, with no read of an older list overtaking a newer one.
 */
it('admits every controller of a burst of registrations, and keeps admitting them once the re-reads have settled', async () => {
  const ids = Array.from({ length: 40 }, (_, index) => `BURST-${Date.now().toString(36)}-${index}`.toUpperCase());
  await Promise.all(ids.map((id) => registerController(t.app, id)));
  expect(ids.filter((id) => !t.app.devices.admits(id))).toEqual([]);
  // The announcements of the burst come back through the broker and are read after it.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(ids.filter((id) => !t.app.devices.admits(id))).toEqual([]);
});
