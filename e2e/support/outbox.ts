import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

/** The mail files in the outbox folder, oldest first, with quoted-printable soft breaks undone. */
export async function outbox(dataDir: string): Promise<string[]> {
  const folder = path.join(dataDir, 'outbox');
  const files = (await readdir(folder).catch(() => [])).filter((file) => file.endsWith('.eml')).sort();
  const mails = await Promise.all(files.map((file) => readFile(path.join(folder, file), 'utf8')));
  return mails.map((mail) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
}

/** The newest mail to a recipient that contains `marker`, waiting for the outbox worker to write it. */
export async function waitForMail(dataDir: string, recipient: string, marker = ''): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const mail = (await outbox(dataDir)).reverse().find((text) => text.includes(recipient) && text.includes(marker));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${recipient} in the outbox`);
}

/** The path of a mailed link, such as /activation/12/abc, /en/set-password/12/abc or /invitation/3/abc. */
export function mailedLinkPath(mail: string, kind: 'activation' | 'set-password' | 'invitation'): string {
  const match = new RegExp(`https?://[^/\\s]+((?:/en)?/${kind}/\\d+/[A-Za-z0-9_-]+)`).exec(mail);
  if (!match?.[1]) throw new Error(`no ${kind} link in the mail:\n${mail}`);
  return match[1];
}
