import type { Language } from '@pivot/contracts';
import { type OutgoingMail, escapeHtml } from '../mail';

export type BackupWarningMail =
  | { kind: 'failed'; error: Record<Language, string>; folder: string }
  | { kind: 'overdue'; days: number; lastBackup: string };

const WORDS: Record<
  Language,
  { subject: Record<BackupWarningMail['kind'], string>; body: (warning: BackupWarningMail) => string; end: string }
> = {
  en: {
    subject: { failed: 'the scheduled backup failed', overdue: 'no recent backup' },
    body: (warning) =>
      warning.kind === 'failed'
        ? `The scheduled backup to ${warning.folder} failed: ${warning.error.en}`
        : `The newest backup was taken ${warning.lastBackup}, ${warning.days} days ago.`,
    end: 'You hear of this again only after the next backup succeeds. See the Backups tab of the admin panel.',
  },
  pl: {
    subject: { failed: 'zaplanowana kopia zapasowa nie powiodła się', overdue: 'brak aktualnej kopii zapasowej' },
    body: (warning) =>
      warning.kind === 'failed'
        ? `Zaplanowana kopia zapasowa do ${warning.folder} nie powiodła się: ${warning.error.pl}`
        : `Najnowszą kopię zapasową wykonano ${warning.lastBackup}, ${warning.days} dni temu.`,
    end: 'Kolejna wiadomość przyjdzie dopiero po następnej udanej kopii. Zobacz zakładkę Kopie zapasowe w panelu administratora.',
  },
};

/** The mail each administrator gets when the backups need attention, in their language. */
export function backupWarningMail(input: {
  to: string;
  language: Language;
  productName: string;
  link: string;
  warning: BackupWarningMail;
}): OutgoingMail {
  const words = WORDS[input.language];
  const subject = `${input.productName}: ${words.subject[input.warning.kind]}`;
  const body = words.body(input.warning);
  const text = [body, input.link, words.end, input.productName].join('\n\n');
  const html = `<!doctype html>
<html lang="${input.language}">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #1f2933;">
<p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>
<p style="font-size: 13px; color: #52606d;">${escapeHtml(words.end)}</p>
<p>${escapeHtml(input.productName)}</p>
</body>
</html>
`;
  return { to: input.to, subject, text: `${text}\n`, html };
}
