import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TopicIdSchema } from '@pivot/contracts';
import { z } from 'zod';

/**
 * Controllers' secrets by machine ID, as an administrator registered them: a JSON object such as
 * `{ "PIVOT-01": "q3V…" }`. The demo writes one; `--credentials` reads one.
 */
export const CredentialsSchema = z.record(TopicIdSchema, z.string().min(1));
export type Credentials = z.infer<typeof CredentialsSchema>;

export async function readCredentialsFile(file: string): Promise<Credentials> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot read the credentials file ${file}: ${reason}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`The credentials file ${file} is not JSON: it holds an object of machine ID to secret`, {
      cause: error,
    });
  }
  const parsed = CredentialsSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `The credentials file ${file} must be an object of machine ID to secret, such as {"PIVOT-01": "…"}`,
    );
  }
  return parsed.data;
}

/** Readable by its owner alone: it holds passwords. */
export async function writeCredentialsFile(file: string, credentials: Credentials): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}
