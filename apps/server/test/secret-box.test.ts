import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEALING_KEY_FILE, SecretBox, sealingKey } from '../src/secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('k'.repeat(32), 'device');

  it('gives back the secret it sealed, only for the same controller and under the same key', () => {
    const sealed = box.seal('PIVOT-1', 'the-secret');
    expect(sealed).not.toContain('the-secret');
    expect(box.open('PIVOT-1', sealed)).toBe('the-secret');
    expect(box.open('PIVOT-2', sealed)).toBeUndefined();
    expect(new SecretBox('l'.repeat(32), 'device').open('PIVOT-1', sealed)).toBeUndefined();
    expect(box.open('PIVOT-1', `${sealed.slice(0, -2)}AA`)).toBeUndefined();
    expect(box.open('PIVOT-1', 'not sealed')).toBeUndefined();
  });

  it('seals the same secret differently each time', () => {
    expect(box.seal('PIVOT-1', 's')).not.toBe(box.seal('PIVOT-1', 's'));
  });
});

describe('sealingKey', () => {
  let folder: string | undefined;
  afterEach(() => (folder ? rm(folder, { recursive: true, force: true }) : undefined));

  it('takes DEVICE_SECRET_KEY when set, and writes nothing', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-key-'));
    expect(await sealingKey('x'.repeat(40), folder)).toBe('x'.repeat(40));
    await expect(stat(path.join(folder, SEALING_KEY_FILE))).rejects.toThrow();
  });

  it('makes a key readable by its owner only in the data folder, and keeps it', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-key-'));
    const made = await sealingKey(undefined, folder);
    expect(made.length).toBeGreaterThanOrEqual(32);
    const file = path.join(folder, SEALING_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(made);
    expect(await sealingKey(undefined, folder)).toBe(made);
  });

  it('makes none when told not to (a command must not seal under a key of its own)', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-key-'));
    await expect(sealingKey(undefined, folder, { make: false })).rejects.toThrow(/DEVICE_SECRET_KEY/);
    await expect(stat(path.join(folder, SEALING_KEY_FILE))).rejects.toThrow();
    const made = await sealingKey(undefined, folder);
    expect(await sealingKey(undefined, folder, { make: false })).toBe(made);
  });

  it('refuses a damaged key file rather than sealing under a weak key', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-key-'));
    await writeFile(path.join(folder, SEALING_KEY_FILE), 'short\n');
    await expect(sealingKey(undefined, folder)).rejects.toThrow(/DEVICE_SECRET_KEY/);
  });
});
