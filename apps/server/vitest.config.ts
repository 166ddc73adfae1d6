import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    // Shared subscriptions need a real broker (aedes has none): those tests run when TEST_MQTT_URL names one.
    exclude: process.env.TEST_MQTT_URL ? [] : ['test/**/*.real-broker.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Hashing passwords and opening databases takes a while on two cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
