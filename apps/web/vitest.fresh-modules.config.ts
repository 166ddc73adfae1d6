import { FRESH_MODULES, webTestProject } from './vitest.config.ts';

/** The web app's files that load its modules anew, each in a document and module graph of its own (see vitest.config.ts). */
export default webTestProject('web-fresh-modules', { include: [FRESH_MODULES], isolate: true });
