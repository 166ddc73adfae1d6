import type { Alert, Language } from '@pivot/contracts';
import { type OutgoingMail, escapeHtml } from '../mail';
import { alertWords } from './alert-wording';

export type AlertMailInput = {
  to: string;
  language: Language;
  productName: string;
  timeZone: string;
  /** The machine page's address, by machine id. */
  machineLink: (sprinklerId: number) => string;
  alerts: Alert[];
};

const SUBJECT: Record<Language, (count: number, first: string) => string> = {
  en: (count, first) => (count === 1 ? first : `${count} alerts: ${first} and more`),
  pl: (count, first) => (count === 1 ? first : `Alerty (${count}): ${first} i inne`),
};

const FOOTER: Record<Language, string> = {
  en: 'You get these alerts for the machines you may see. Choose which, and how, on your account page.',
  pl: 'Te alerty dotyczą maszyn, do których masz dostęp. Wybierz, które i jak je dostawać, na stronie swojego konta.',
};

/** One mail of a user's alerts that waited together, oldest first, in the user's language. */
export function alertMail(input: AlertMailInput): OutgoingMail {
  const { language, alerts } = input;
  const time = new Intl.DateTimeFormat(language, { timeZone: input.timeZone, dateStyle: 'short', timeStyle: 'medium' });
  const lines = alerts.map((alert) => ({ ...alertWords(language, alert), alert, at: time.format(alert.timestamp) }));
  const first = lines[0]!;
  const subject = `${input.productName}: ${SUBJECT[language](lines.length, `${first.title}, ${first.alert.sprinklerName}`)}`;
  const text = [
    ...lines.map((line) => `${line.at}  ${line.title}\n${line.sentence}\n${input.machineLink(line.alert.sprinklerId)}`),
    FOOTER[language],
    input.productName,
  ].join('\n\n');
  const items = lines
    .map(
      (line) =>
        `<li style="margin-bottom: 12px;"><strong>${escapeHtml(line.title)}</strong> <span style="color: #52606d;">${escapeHtml(line.at)}</span><br>${escapeHtml(line.sentence)}<br><a href="${escapeHtml(input.machineLink(line.alert.sprinklerId))}">${escapeHtml(line.alert.sprinklerName)}</a></li>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #1f2933;">
<ul style="padding-left: 18px;">
${items}
</ul>
<p style="font-size: 13px; color: #52606d;">${escapeHtml(FOOTER[language])}</p>
<p>${escapeHtml(input.productName)}</p>
</body>
</html>
`;
  return { to: input.to, subject, text: `${text}\n`, html };
}
