import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../src/db/client';
import { withDatabaseName } from './database';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    pgliteEmptyImagePath: string;
    pgliteFolderTemplate: string;
    postgresTemplateDatabase: string;
  }
}

/**
 * Migrates one database per run and lets every test file start from a copy of it: a migrated
 * PGlite image, or a PostgreSQL template database when DATABASE_URL is set; and keeps the image
 * of a PGlite before its migrations.
 */
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  // Named per run, so runs sharing one PostgreSQL server (CI and a developer) leave each other alone.
  const templateDatabase = `pivot_test_template_${process.pid}`;
  const adminQuery = async (statement: string) => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(statement);
    await admin.end();
  };
  if (databaseUrl) {
    await adminQuery(`create database ${templateDatabase}`);
    const template = await openPostgres(withDatabaseName(databaseUrl, templateDatabase));
    await template.close();
  }
  const client = new PGlite();
  // Before any migration, for the tests of a migration (PostgreSQL's initdb costs about 6 s of
  // processor, a copy of its result about 1.4 s).
  const emptyImagePath = path.join(os.tmpdir(), `pivot-test-empty-${process.pid}.tar`);
  await client.waitReady;
  await writeFile(emptyImagePath, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  const handle = await openPglite(client);
  const image = await client.dumpDataDir('none');
  const imagePath = path.join(os.tmpdir(), `pivot-test-template-${process.pid}.tar`);
  await writeFile(imagePath, Buffer.from(await image.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplatePath', imagePath);
  project.provide('pgliteEmptyImagePath', emptyImagePath);
  // Made by the first test that wants it (withEmbeddedDatabase), removed here at the end.
  const folderTemplate = path.join(os.tmpdir(), `pivot-test-pglite-folder-${process.pid}`);
  project.provide('pgliteFolderTemplate', folderTemplate);
  project.provide('postgresTemplateDatabase', templateDatabase);

  return async () => {
    await rm(imagePath, { force: true });
    await rm(emptyImagePath, { force: true });
    await rm(folderTemplate, { recursive: true, force: true });
    if (databaseUrl) await adminQuery(`drop database if exists ${templateDatabase} with (force)`);
  };
}
