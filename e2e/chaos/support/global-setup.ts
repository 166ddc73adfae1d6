import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { readFigures, summaryTable } from './figures';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each scenario leaves its figures for the summary. */
    chaosFiguresDir: string;
    /** The PostgreSQL server the scenarios make their databases on. */
    chaosPostgresUrl: string;
  }
}

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Checks that PostgreSQL answers (most scenarios need it, as a fleet of several instances does),
 * and after the last scenario prints the table of every scenario's figures.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`The chaos suite needs PostgreSQL at ${POSTGRES_URL} (TEST_DATABASE_URL)`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
  const figuresDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-chaos-'));
  project.provide('chaosFiguresDir', figuresDir);
  project.provide('chaosPostgresUrl', POSTGRES_URL);
  return async () => {
    const figures = await readFigures(figuresDir);
    if (figures.length > 0) process.stdout.write(`\n${summaryTable(figures)}\n`);
    await rm(figuresDir, { recursive: true, force: true });
  };
}
