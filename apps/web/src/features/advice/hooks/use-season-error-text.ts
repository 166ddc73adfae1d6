import { useTranslation } from 'react-i18next';
import { type SeasonErrorKey, isSeasonErrorKey, messageKey } from '../lib/season-form';

/**
 * A form problem in the page's language: a message key of the form's own checks, or a server's
 * message, which speaks English with the contract's words and is said by its key where known.
 */
export function useSeasonErrorText(): (problem: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return (problem) => {
    if (!problem) return undefined;
    const key: SeasonErrorKey | undefined = isSeasonErrorKey(problem) ? problem : messageKey(problem);
    return key ? t(`advice.seasons.errors.${key}`) : problem;
  };
}
