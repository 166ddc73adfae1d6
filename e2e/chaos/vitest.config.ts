import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'chaos',
    include: ['*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    // Each file runs servers and brokers of its own and mostly waits on them (restarts, the
    // settling of abandoned commands): two files at a time keep the suite to a couple of minutes
    // without starving the processes under test on two cores.
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
