import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { logReads } from '../../src/modules/logs/logs.table';
import { migrationsBefore, migrationsFolder } from '../support/migrations';
import { unmigratedPglite } from '../support/embedded-databases';

describe('the migration that gives the activity log its own read marks', () => {
  const client = unmigratedPglite();
  const db = drizzle(client, { casing: 'snake_case' });
  afterAll(() => client.close());

  it('keeps the moment each user last read the log, and nothing for those who never did', async () => {
    const older = await migrationsBefore('0002_log_reads');
    await migrate(db, { migrationsFolder: older });
    await rm(older, { recursive: true, force: true });
    await db.execute(sql`
      insert into users (first_name, last_name, email, logs_read_at) values
        ('Ola', 'Mazur', 'ola@farm.pl', '2026-05-04T10:00:00Z'),
        ('Jan', 'Nowak', 'jan@farm.pl', null)`);

    await migrate(db, { migrationsFolder });

    const rows = await db.select().from(logReads);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.readAt.toISOString()).toBe('2026-05-04T10:00:00.000Z');
  });
});
