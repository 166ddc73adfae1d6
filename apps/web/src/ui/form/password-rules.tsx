import { PASSWORD_RULES, brokenPasswordRules } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../other-icons';

/** The rules of docs/product.md#validation for a new password, each ticked off while the user types. */
export function PasswordRules({ password }: { password: string }) {
  const { t } = useTranslation();
  const broken = new Set(brokenPasswordRules(password));
  return (
    <div>
      <p>{t('password.rulesIntro')}</p>
      <ul className="mt-1 flex flex-col gap-0.5">
        {PASSWORD_RULES.map((rule) => {
          const met = !broken.has(rule);
          return (
            <li key={rule} className={`flex items-center gap-1.5 ${met ? 'text-success' : ''}`}>
              {met ? (
                <CheckIcon className="size-4 shrink-0" />
              ) : (
                <span aria-hidden="true" className="inline-block size-4 shrink-0 text-center leading-4">
                  •
                </span>
              )}
              <span>
                {t(`password.rules.${rule}`)}
                <span className="sr-only">{met ? t('password.ruleMet') : t('password.ruleNotMet')}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
