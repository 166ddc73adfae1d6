import type { Language } from '@pivot/contracts';

/** `--lang pl|en` given on a command line, or what the value was when it is neither. */
export type LanguageOption = { language: Language } | { invalid: string } | undefined;

/** Reads `--lang <value>` or `--lang=<value>` from a command's arguments. */
export function languageOption(args: readonly string[]): LanguageOption {
  const index = args.findIndex((argument) => argument === '--lang' || argument.startsWith('--lang='));
  if (index < 0) return undefined;
  const argument = args[index]!;
  const value = argument === '--lang' ? (args[index + 1] ?? '') : argument.slice('--lang='.length);
  return value === 'pl' || value === 'en' ? { language: value } : { invalid: value };
}

/** The arguments without `--lang` and its value. */
export function withoutLanguageOption(args: readonly string[]): string[] {
  return args.filter(
    (argument, index) => argument !== '--lang' && !argument.startsWith('--lang=') && args[index - 1] !== '--lang',
  );
}

/**
 * The language a command-line program speaks, as the C library chooses its messages' locale: the
 * first of LC_ALL, LC_MESSAGES and LANG that is set and not empty; Polish when it starts with
 * "pl", English otherwise (also when none is set). An explicit `--lang` wins.
 */
export function commandLanguage(option: LanguageOption, env: NodeJS.ProcessEnv): Language {
  if (option && 'language' in option) return option.language;
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale?.startsWith('pl') ? 'pl' : 'en';
}
