import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    // Shared subscriptions need a real broker (aedes has none): those tests run when TEST_MQTT_URL names one.
    exclude: process.env.TEST_MQTT_URL ? [] : ['test/**/*.real-broker.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // The files of a worker share its process and the modules it loaded (each file still opens an
    // app of its own, on an embedded database that the worker's earlier files put back as new:
    // test/support/embedded-databases.ts): the server's code and PGlite's WebAssembly are compiled
    // once a worker rather than once a file, 40 % of the suite's processor time.
    isolate: false,
    // Hashing passwords and opening databases takes a while on two cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
