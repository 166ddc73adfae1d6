import { SprinklerDetailSchema, SprinklerListResponseSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { machineState } from '../../src/modules/telemetry/telemetry.table';
import { buildSprinkler } from '../support/fixtures';
import { useTestApp } from '../support/test-app';

/**
 * A controller that froze with its TCP connection open sends no last will: the broker still has
 * it connected. Only its silence tells, measured against what it last reported.
 */
describe('a machine that went silent with its connection open', () => {
  const t = useTestApp({}, { signInAdmin: true });

  async function machineLastReporting(status: 'front' | 'stop', silentForMs: number) {
    const sprinkler = await buildSprinkler(t);
    const reportedAt = new Date(Date.now() - silentForMs);
    await t.database.db.insert(machineState).values({
      machineId: sprinkler.internalId,
      online: true,
      presenceAt: new Date(Date.now() - 3_600_000),
      reportedAt,
      status,
      angle: 10,
      distance: 400,
      speed: 50,
      pressure: status === 'stop' ? 0 : 2.4,
      flow: status === 'stop' ? 0 : 90,
    });
    return { id: sprinkler.id, reportedAt: reportedAt.getTime() };
  }

  async function shown(id: number) {
    const detail = SprinklerDetailSchema.parse((await t.admin.get(`/api/sprinkler/${id}/`)).body);
    const listed = SprinklerListResponseSchema.parse((await t.admin.get('/api/sprinkler/')).body).find(
      (item) => item.id === id,
    );
    return [
      { online: detail.online, reportedAt: detail.reportedAt },
      { online: listed!.online, reportedAt: listed!.reportedAt },
    ];
  }

  it('is offline 20 s after its last report while moving, with the time of that report', async () => {
    const { id, reportedAt } = await machineLastReporting('front', 20_000);
    expect(await shown(id)).toEqual([
      { online: false, reportedAt },
      { online: false, reportedAt },
    ]);
  });

  it('is still online 2 minutes after its last report at rest, and offline after 4', async () => {
    const resting = await machineLastReporting('stop', 120_000);
    expect((await shown(resting.id)).map((view) => view.online)).toEqual([true, true]);
    const silent = await machineLastReporting('stop', 240_000);
    expect((await shown(silent.id)).map((view) => view.online)).toEqual([false, false]);
  });
});
