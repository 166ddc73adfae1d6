import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { users } from '../../src/modules/users/users.table';
import { createTestDatabase } from '../support/database';

describe('test database', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('starts migrated and empty, on the database the run asked for', async () => {
    const [row] = await handle.db.select({ value: count() }).from(users);
    expect(row?.value).toBe(0);
    expect(handle.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  });
});
