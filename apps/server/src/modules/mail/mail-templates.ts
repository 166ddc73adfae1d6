import type { FarmRole, Language } from '@pivot/contracts';

export type MailTemplateInput = { language: Language; firstName: string; link: string; productName: string };
export type MailContent = { subject: string; text: string; html: string };

/** What one kind of mail says in one language; the layout around it is shared. */
type Wording = {
  subject: (productName: string) => string;
  intro: (productName: string) => string;
  button: string;
  expiry: string;
  ignore: string;
};

// "w serwisie X" keeps the product name in the nominative, which Polish would otherwise inflect.
const ACTIVATION: Record<Language, Wording> = {
  en: {
    subject: (productName) => `Activate your ${productName} account`,
    intro: (productName) =>
      `An account has been created for you in ${productName}. To activate it, open the link below and set your password.`,
    button: 'Activate account',
    expiry: 'The link is valid for 7 days and works once.',
    ignore: 'If you did not expect this mail, you can ignore it.',
  },
  pl: {
    subject: (productName) => `Aktywuj konto w serwisie ${productName}`,
    intro: (productName) =>
      `Utworzono dla Ciebie konto w serwisie ${productName}. Aby je aktywować, otwórz poniższy link i ustaw hasło.`,
    button: 'Aktywuj konto',
    expiry: 'Link jest ważny przez 7 dni i działa jeden raz.',
    ignore: 'Jeśli nie spodziewasz się tej wiadomości, po prostu ją zignoruj.',
  },
};

const PASSWORD_RESET: Record<Language, Wording> = {
  en: {
    subject: (productName) => `Set a new password for ${productName}`,
    intro: (productName) =>
      `Someone asked to reset the password of your ${productName} account. To set a new password, open the link below.`,
    button: 'Set a new password',
    expiry: 'The link is valid for 1 hour and works once.',
    ignore: 'If it was not you, ignore this mail: your password stays as it is.',
  },
  pl: {
    subject: (productName) => `Ustaw nowe hasło w serwisie ${productName}`,
    intro: (productName) =>
      `Otrzymaliśmy prośbę o zmianę hasła do Twojego konta w serwisie ${productName}. Aby ustawić nowe hasło, otwórz poniższy link.`,
    button: 'Ustaw nowe hasło',
    expiry: 'Link jest ważny przez 1 godzinę i działa jeden raz.',
    ignore: 'Jeśli to nie Ty, zignoruj tę wiadomość: Twoje hasło pozostanie bez zmian.',
  },
};

// Names are optional in practice, and "Hello ," reads worse than no name at all.
const GREETING: Record<Language, (firstName: string) => string> = {
  en: (firstName) => (firstName ? `Hello ${firstName},` : 'Hello,'),
  pl: (firstName) => (firstName ? `Dzień dobry, ${firstName}!` : 'Dzień dobry!'),
};

const COPY_LINK_HINT: Record<Language, string> = {
  en: 'If the button does not work, copy this address into your browser:',
  pl: 'Jeśli przycisk nie działa, skopiuj ten adres do przeglądarki:',
};

export type EmailChangedInput = Omit<MailTemplateInput, 'link'> & { oldEmail: string; newEmail: string };

/** Sent to the old address only: a warning with nothing to click, so it cannot be used to phish. */
const EMAIL_CHANGED: Record<
  Language,
  { subject: (productName: string) => string; intro: (input: EmailChangedInput) => string; ignore: string }
> = {
  en: {
    subject: (productName) => `The email of your ${productName} account has changed`,
    intro: ({ productName, oldEmail, newEmail }) =>
      `The email address of your ${productName} account was changed from ${oldEmail} to ${newEmail}. Mail for the account now goes to the new address.`,
    ignore:
      'If it was you, there is nothing to do. If not, contact your administrator at once: someone may have taken over your account.',
  },
  pl: {
    subject: (productName) => `Zmieniono adres email konta w serwisie ${productName}`,
    intro: ({ productName, oldEmail, newEmail }) =>
      `Adres email Twojego konta w serwisie ${productName} zmieniono z ${oldEmail} na ${newEmail}. Wiadomości dotyczące konta trafiają teraz na nowy adres.`,
    ignore:
      'Jeśli to Ty, nie musisz nic robić. Jeśli nie, natychmiast skontaktuj się z administratorem: ktoś mógł przejąć Twoje konto.',
  },
};

export function activationMail(input: MailTemplateInput): MailContent {
  return renderLinkMail(ACTIVATION[input.language], input);
}

export function passwordResetMail(input: MailTemplateInput): MailContent {
  return renderLinkMail(PASSWORD_RESET[input.language], input);
}

/** An invitation to a farm: who invites, to which farm, in which role (docs/roles.md). */
export type FarmInvitationInput = Omit<MailTemplateInput, 'firstName'> & {
  farmName: string;
  inviter: string;
  role: FarmRole;
};

const ROLE_WORDS: Record<Language, Record<FarmRole, string>> = {
  en: { owner: 'an owner', manager: 'a manager', member: 'a member' },
  pl: { owner: 'właściciel', manager: 'zarządca', member: 'członek' },
};

const FARM_INVITATION: Record<Language, Omit<Wording, 'intro'> & { intro: (input: FarmInvitationInput) => string }> = {
  en: {
    subject: (productName) => `You are invited to a farm in ${productName}`,
    intro: ({ inviter, farmName, role, productName }) =>
      `${inviter} invites you to the farm ${farmName} in ${productName}, as ${ROLE_WORDS.en[role]}. Open the link below to accept: set a password if you are new, or confirm with yours.`,
    button: 'Accept the invitation',
    expiry: 'The link is valid for 7 days and works once.',
    ignore: 'If you did not expect this mail, you can ignore it.',
  },
  pl: {
    subject: (productName) => `Zaproszenie do gospodarstwa w serwisie ${productName}`,
    intro: ({ inviter, farmName, role, productName }) =>
      `${inviter} zaprasza Cię do gospodarstwa ${farmName} w serwisie ${productName} (rola: ${ROLE_WORDS.pl[role]}). Aby przyjąć zaproszenie, otwórz poniższy link: ustaw hasło, jeśli jesteś tu nowy, albo potwierdź swoim.`,
    button: 'Przyjmij zaproszenie',
    expiry: 'Link jest ważny przez 7 dni i działa jeden raz.',
    ignore: 'Jeśli nie spodziewasz się tej wiadomości, po prostu ją zignoruj.',
  },
};

export function farmInvitationMail(input: FarmInvitationInput): MailContent {
  const wording = FARM_INVITATION[input.language];
  return render({
    ...input,
    firstName: '',
    subject: wording.subject(input.productName),
    intro: wording.intro(input),
    link: { href: input.link, button: wording.button },
    closing: `${wording.expiry} ${wording.ignore}`,
  });
}

export function emailChangedMail(input: EmailChangedInput): MailContent {
  const wording = EMAIL_CHANGED[input.language];
  return render({
    ...input,
    subject: wording.subject(input.productName),
    intro: wording.intro(input),
    closing: wording.ignore,
  });
}

function renderLinkMail(wording: Wording, input: MailTemplateInput): MailContent {
  return render({
    ...input,
    subject: wording.subject(input.productName),
    intro: wording.intro(input.productName),
    link: { href: input.link, button: wording.button },
    closing: `${wording.expiry} ${wording.ignore}`,
  });
}

type MailParts = {
  language: Language;
  firstName: string;
  productName: string;
  subject: string;
  intro: string;
  link?: { href: string; button: string };
  closing: string;
};

function render({ language, firstName, productName, subject, intro, link, closing }: MailParts): MailContent {
  const greeting = GREETING[language](firstName.trim());
  const text = [greeting, intro, ...(link ? [link.href] : []), closing, productName].join('\n\n') + '\n';
  const href = link ? escapeHtml(link.href) : '';
  const linkHtml = link
    ? `<p><a href="${href}" style="display: inline-block; padding: 10px 18px; background: #2f7d32; color: #ffffff; text-decoration: none; border-radius: 4px;">${escapeHtml(link.button)}</a></p>
<p style="font-size: 13px; color: #52606d;">${escapeHtml(COPY_LINK_HINT[language])}<br><a href="${href}">${href}</a></p>
`
    : '';
  const html = `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #1f2933;">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${linkHtml}<p>${escapeHtml(closing)}</p>
<p>${escapeHtml(productName)}</p>
</body>
</html>
`;
  return { subject, text, html };
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ENTITIES[character] ?? character);
}
