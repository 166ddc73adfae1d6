import { rm } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { asc } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { farmMachines, farmMembers, farms, sprinklerAccess } from '../../src/modules/access/access.table';
import { migrationsBefore, migrationsFolder } from '../support/migrations';
import { unmigratedPglite } from '../support/embedded-databases';

describe('the migration that brings farms', () => {
  let client: PGlite;
  afterEach(() => client.close());

  async function migratedFrom(seed: string) {
    client = unmigratedPglite();
    const db = drizzle(client, { casing: 'snake_case' });
    const older = await migrationsBefore('0040_farms');
    await migrate(db, { migrationsFolder: older });
    await rm(older, { recursive: true, force: true });
    await client.exec(seed);
    await migrate(db, { migrationsFolder });
    return db;
  }

  it('makes an install one farm: every machine in it, administrators its owners, grantees members, every grant kept', async () => {
    const db = await migratedFrom(`
      insert into users (id, first_name, last_name, email, admin, company) values
        (1, 'Ada', 'Admin', 'ada@farm.pl', true, ' Gospodarstwo Nowak '),
        (2, 'Jan', 'Nowak', 'jan@farm.pl', false, null),
        (3, 'Ola', 'Mazur', 'ola@farm.pl', false, null),
        (4, 'Piotr', 'Bez', 'piotr@farm.pl', false, null),
        (5, 'Ewa', 'Admin', 'ewa@farm.pl', true, null);
      insert into sprinklers (id, internal_id, name, lat, lng) values
        (10, 'P-10', 'North', 52.2, 17.1), (11, 'P-11', 'South', 52.3, 17.2);
      insert into sprinkler_access (sprinkler_id, user_id, level) values
        (10, 2, 'control'), (11, 2, 'watch'), (11, 3, 'watch'), (10, 5, 'control');`);

    const [farm, ...others] = await db.select().from(farms);
    expect(others).toEqual([]);
    expect(farm!.name).toBe('Gospodarstwo Nowak');
    expect(await db.select().from(farmMachines).orderBy(asc(farmMachines.sprinklerId))).toEqual([
      { sprinklerId: 10, farmId: farm!.id },
      { sprinklerId: 11, farmId: farm!.id },
    ]);
    const members = await db
      .select({ userId: farmMembers.userId, role: farmMembers.role })
      .from(farmMembers)
      .orderBy(asc(farmMembers.userId));
    // Piotr, granted nothing, is no member; Ewa, an administrator with a grant, is an owner.
    expect(members).toEqual([
      { userId: 1, role: 'owner' },
      { userId: 2, role: 'member' },
      { userId: 3, role: 'member' },
      { userId: 5, role: 'owner' },
    ]);
    const grants = await db
      .select({
        sprinklerId: sprinklerAccess.sprinklerId,
        userId: sprinklerAccess.userId,
        level: sprinklerAccess.level,
      })
      .from(sprinklerAccess)
      .orderBy(asc(sprinklerAccess.sprinklerId), asc(sprinklerAccess.userId));
    expect(grants).toEqual([
      { sprinklerId: 10, userId: 2, level: 'control' },
      { sprinklerId: 10, userId: 5, level: 'control' },
      { sprinklerId: 11, userId: 2, level: 'watch' },
      { sprinklerId: 11, userId: 3, level: 'watch' },
    ]);
  });

  it('names the farm "Farm" when the first administrator has no company', async () => {
    const db = await migratedFrom(`
      insert into users (id, first_name, last_name, email, admin) values (1, 'Ada', 'Admin', 'ada@farm.pl', true);
      insert into sprinklers (id, internal_id, name, lat, lng) values (10, 'P-10', 'North', 52.2, 17.1);`);
    expect((await db.select({ name: farms.name }).from(farms)).map((farm) => farm.name)).toEqual(['Farm']);
  });

  it('makes no farm of a new install', async () => {
    const db = await migratedFrom(`select 1`);
    expect(await db.select().from(farms)).toEqual([]);
  });
});
