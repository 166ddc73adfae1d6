import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { insertUser } from '../../src/modules/users/users.repository';
import { createTestDatabase } from '../support/database';

const newUser = { firstName: 'Jan', lastName: 'Nowak', passwordHash: 'x', activatedAt: new Date() };

// The embedded databases of a worker serve file after file (support/embedded-databases.ts): each
// must look new to the file that takes it.
it('gives every test file a database as the migrations left it, whatever the one before did', async () => {
  const first = await createTestDatabase();
  const firstUser = await insertUser(first.db, { ...newUser, email: 'first@pivot.test' });
  await first.db.execute(sql`create table made_by_a_test (id int)`);
  await first.db.execute(sql`create view seen_by_a_test as select 1 as one`);
  await first.db.execute(
    sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', 99999999999999)`,
  );
  await first.close();

  const second = await createTestDatabase();
  try {
    // PGlite and node-postgres both answer with the rows under `rows`.
    const { rows } = (await second.db.execute(sql`
      select (select count(*) from pg_class where relname in ('made_by_a_test', 'seen_by_a_test'))::int as made,
        (select count(*) from users)::int as users,
        (select count(*) from drizzle.__drizzle_migrations where hash = 'newer')::int as newer`)) as unknown as {
      rows: { made: number; users: number; newer: number }[];
    };
    expect(rows[0]).toEqual({ made: 0, users: 0, newer: 0 });
    const secondUser = await insertUser(second.db, { ...newUser, email: 'second@pivot.test' });
    expect(secondUser.id).toBe(firstUser.id);
  } finally {
    await second.close();
  }
});

it('refuses the queries of a file that closed its database', async () => {
  const database = await createTestDatabase();
  await database.close();
  await expect(database.db.execute(sql`select 1`)).rejects.toThrow();
});
