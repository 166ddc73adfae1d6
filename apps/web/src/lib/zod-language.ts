import { LanguageSchema, ZOD_ERROR_MAPS } from '@pivot/contracts';
import { z } from 'zod';
import { i18n } from '@/i18n/i18n';

function follow(language: string | undefined): void {
  const parsed = LanguageSchema.safeParse(language);
  z.config({ localeError: ZOD_ERROR_MAPS[parsed.success ? parsed.data : 'en'] });
}

let following = false;

/**
 * zod's own messages in the page's language (one page, one language), for a form whose checks run
 * the contracts' schemas before the server does and may show their messages: set at the first
 * check and at every switch after. Called by those checks, so zod comes with the forms' code, not
 * with the first screen's.
 */
export function zodInPageLanguage(): void {
  if (following) return;
  following = true;
  follow(i18n.language);
  i18n.on('languageChanged', follow);
}
