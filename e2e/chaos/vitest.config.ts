import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'chaos',
    include: ['*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    // Each file runs servers and brokers of its own (the autopilot's scenarios two servers
    // looking every second): one file at a time, since the suite runs beside the embedded and the
    // real services' suites (scripts/test.sh) and, two at a time, starved them on two cores (a
    // first start not ready in time, health degraded by the event loop's delay). Serial, it still
    // ends before them (about 15 minutes).
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
