import type { Passkey } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { Button } from '@/ui/button';
import { confirmDialog, promptDialog } from '@/ui/dialog/dialogs';
import { IconButton } from '@/ui/icon-button';
import { PlusIcon, TrashIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { addPasskey, removePasskey, usePasskeys } from '../api/passkeys';
import { PasswordDialog } from './password-dialog';

/**
 * The passkeys of the signed-in user, in the two-step sign-in card (docs/two-factor.md#passkeys):
 * each one's name, when it was added and last used; adding one (its name, the password, then the
 * browser's prompt) and removing one, confirmed.
 */
export function PasskeysList() {
  const { t } = useTranslation();
  const dates = useDateTimeFormat();
  const passkeys = usePasskeys();
  // The name given, while its password is asked.
  const [naming, setNaming] = useState<string | null>(null);

  const startAdding = async () => {
    const typed = await promptDialog({
      title: t('account.secondFactor.passkeys.nameTitle'),
      message: t('account.secondFactor.passkeys.nameDescription'),
      input: {
        label: t('account.secondFactor.passkeys.name'),
        initialValue: t('account.secondFactor.passkeys.defaultName'),
      },
      right: t('account.secondFactor.passkeys.passwordSubmit'),
    });
    if (typed === false) return;
    const name = typed.trim();
    if (!name) {
      showToast({ variant: 'warning', title: t('account.secondFactor.passkeys.nameRequired') });
      return;
    }
    setNaming(name);
  };

  const add = async (password: string) => {
    const result = await addPasskey(naming!, password);
    if (result.ok) {
      showToast({
        variant: 'success',
        title: t('account.secondFactor.passkeys.addedToast', { name: result.data.name }),
      });
      setNaming(null);
      return 'done' as const;
    }
    if ('prompt' in result) {
      showToast({ variant: 'error', title: t(`account.secondFactor.passkeys.${result.prompt}`) });
    }
    return result.wrongPassword ? ('wrong' as const) : ('failed' as const);
  };

  const remove = async (passkey: Passkey) => {
    const confirmed = await confirmDialog({
      title: t('account.secondFactor.passkeys.removeTitle', { name: passkey.name }),
      message: t('account.secondFactor.passkeys.removeMessage'),
      right: t('account.secondFactor.passkeys.removeConfirm'),
      danger: true,
    });
    if (confirmed && (await removePasskey(passkey.id))) {
      showToast({ variant: 'success', title: t('account.secondFactor.passkeys.removedToast', { name: passkey.name }) });
    }
  };

  const list = passkeys.data || [];
  return (
    <section aria-labelledby="account-passkeys" className="mt-6 border-t border-line pt-4">
      <h3 id="account-passkeys" className="font-semibold">
        {t('account.secondFactor.passkeys.title')}
      </h3>
      <p className="mb-3 text-sm text-ink-muted">{t('account.secondFactor.passkeys.description')}</p>
      {passkeys.data && list.length === 0 && (
        <p className="mb-3 text-sm text-ink-muted">{t('account.secondFactor.passkeys.empty')}</p>
      )}
      {list.length > 0 && (
        <ul className="mb-3 flex flex-col divide-y divide-line rounded-md border border-line">
          {list.map((passkey) => (
            <li key={passkey.id} className="flex items-center justify-between gap-3 px-3 py-2">
              <div className="flex min-w-0 flex-col text-sm">
                <span className="truncate font-medium">{passkey.name}</span>
                <span className="text-ink-muted">
                  {t('account.secondFactor.passkeys.added', { date: dates.dateTime(Date.parse(passkey.created_at)) })}
                  {' · '}
                  {passkey.last_used_at
                    ? t('account.secondFactor.passkeys.lastUsed', {
                        date: dates.dateTime(Date.parse(passkey.last_used_at)),
                      })
                    : t('account.secondFactor.passkeys.neverUsed')}
                </span>
              </div>
              <IconButton
                label={t('account.secondFactor.passkeys.remove', { name: passkey.name })}
                onClick={() => void remove(passkey)}
              >
                <TrashIcon className="size-4" />
              </IconButton>
            </li>
          ))}
        </ul>
      )}
      <Button variant="secondary" icon={<PlusIcon className="size-4" />} onClick={() => void startAdding()}>
        {t('account.secondFactor.passkeys.add')}
      </Button>
      {naming !== null && (
        <PasswordDialog
          title={t('account.secondFactor.passkeys.passwordTitle')}
          description={t('account.secondFactor.passkeys.passwordDescription')}
          submitLabel={t('account.secondFactor.passkeys.passwordSubmit')}
          onPassword={add}
          onClose={() => setNaming(null)}
        />
      )}
    </section>
  );
}
