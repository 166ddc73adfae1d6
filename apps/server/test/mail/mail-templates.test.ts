import { describe, expect, it } from 'vitest';
import { activationMail, emailChangedMail, passwordResetMail } from '../../src/modules/mail/mail-templates';

const LINK = 'https://pivot.example/en/activation/17/token-value?from=mail&step=1';
const ESCAPED_LINK = 'https://pivot.example/en/activation/17/token-value?from=mail&amp;step=1';

const CASES = [
  { mail: 'activation', render: activationMail, language: 'en', subject: 'Activate', expiry: 'valid for 7 days' },
  { mail: 'activation', render: activationMail, language: 'pl', subject: 'Aktywuj', expiry: 'ważny przez 7 dni' },
  { mail: 'password reset', render: passwordResetMail, language: 'en', subject: 'new password', expiry: '1 hour' },
  { mail: 'password reset', render: passwordResetMail, language: 'pl', subject: 'nowe hasło', expiry: '1 godzinę' },
] as const;

describe.each(CASES)('$mail mail in $language', ({ render, language, subject, expiry }) => {
  const mail = render({ language, firstName: 'Anna <b>&</b> "Bo"', link: LINK, productName: 'Pivot' });

  it('is written in its language and names the product', () => {
    expect(mail.subject).toContain(subject);
    expect(mail.subject).toContain('Pivot');
    expect(mail.html).toContain(`<html lang="${language}">`);
  });

  it('carries the link in the text and the HTML', () => {
    expect(mail.text).toContain(`\n${LINK}\n`);
    expect(mail.html).toContain(`href="${ESCAPED_LINK}"`);
  });

  it('says how long the link is valid', () => {
    expect(mail.text).toContain(expiry);
    expect(mail.html).toContain(expiry);
  });

  it('escapes the name in the HTML and keeps it as typed in the text', () => {
    expect(mail.html).toContain('Anna &lt;b&gt;&amp;&lt;/b&gt; &quot;Bo&quot;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.text).toContain('Anna <b>&</b> "Bo"');
  });

  it('greets without a name when there is none', () => {
    const unnamed = render({ language, firstName: ' ', link: LINK, productName: 'Pivot' });
    expect(unnamed.text.split('\n')[0]).toMatch(/^(Hello,|Dzień dobry!)$/);
  });
});

describe.each(['en', 'pl'] as const)('email-changed notice in %s', (language) => {
  const mail = emailChangedMail({
    language,
    firstName: 'Anna',
    productName: 'Pivot',
    oldEmail: 'anna@farm.pl',
    newEmail: 'a<b>@farm.pl',
  });

  it('names both addresses, escaped in the HTML, and carries no link to click', () => {
    expect(mail.subject).toContain('Pivot');
    expect(mail.text).toContain('anna@farm.pl');
    expect(mail.text).toContain('a<b>@farm.pl');
    expect(mail.html).toContain('a&lt;b&gt;@farm.pl');
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.html).not.toContain('<a ');
    expect(mail.text).not.toContain('http');
  });
});
