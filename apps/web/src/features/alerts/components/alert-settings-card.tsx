import type { AccountAlertSettings, AlertSettings } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { AlertChannelsField, IncidentKindsField } from '@/ui/form/alert-choice-fields';
import { WarningIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useAccountAlertSettings } from '../api/get-account-alert-settings';
import { useResetAccountAlertSettings } from '../api/reset-account-alert-settings';
import { useUpdateAccountAlertSettings } from '../api/update-account-alert-settings';
import { BrowserPushStatus } from './browser-push-status';
import { MutedMachinesField } from './muted-machines-field';

const settingsOf = ({ kinds, channels, mutedMachineIds }: AccountAlertSettings): AlertSettings => ({
  kinds,
  channels,
  mutedMachineIds,
});

/** The user's alert settings: which incidents, which channels, which machines muted; saved as one. */
function AlertSettingsForm({ saved }: { saved: AccountAlertSettings }) {
  const { t } = useTranslation();
  const update = useUpdateAccountAlertSettings();
  const reset = useResetAccountAlertSettings();
  const [values, setValues] = useState(() => settingsOf(saved));
  const busy = update.isPending || reset.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // What the server stored comes back through the cache, and starts the form afresh.
    if (!(await update.run(values))) return;
    showToast({ variant: 'success', title: t('alerts.saved') });
  };

  const backToDefaults = async () => {
    const confirmed = await confirmDialog({
      title: t('alerts.resetTitle'),
      message: t('alerts.resetMessage'),
      left: t('dialog.cancel'),
      right: t('alerts.resetConfirm'),
    });
    if (!confirmed) return;
    if (!(await reset.run())) return;
    showToast({ variant: 'success', title: t('alerts.resetDone') });
  };

  const nothingChosen = values.kinds.length === 0 || values.channels.length === 0;
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {saved.usesDefaults ? (
          <>
            <Badge tone="muted">{t('alerts.usesDefaults')}</Badge>
            <p className="text-sm text-ink-muted">{t('alerts.usesDefaultsHint')}</p>
          </>
        ) : (
          <>
            <Badge tone="water">{t('alerts.ownSettings')}</Badge>
            <Button variant="link" className="min-w-0 px-0" disabled={busy} onClick={() => void backToDefaults()}>
              {t('alerts.reset')}
            </Button>
          </>
        )}
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <IncidentKindsField
          value={values.kinds}
          onChange={(kinds) => setValues({ ...values, kinds })}
          disabled={busy}
        />
        <AlertChannelsField
          value={values.channels}
          onChange={(channels) => setValues({ ...values, channels })}
          disabled={busy}
          more={{ push: <BrowserPushStatus channelChosen={values.channels.includes('push')} /> }}
        />
      </div>
      <MutedMachinesField
        value={values.mutedMachineIds}
        onChange={(mutedMachineIds) => setValues({ ...values, mutedMachineIds })}
        disabled={busy}
      />
      {nothingChosen && (
        <p role="status" className="flex items-start gap-2 rounded-lg bg-warning-soft p-3 text-sm font-medium">
          <WarningIcon className="mt-0.5 size-4 shrink-0 text-warning" />
          {t('alerts.nothingChosen')}
        </p>
      )}
      <div>
        <Button type="submit" disabled={busy}>
          {t('alerts.save')}
        </Button>
      </div>
    </form>
  );
}

/** The account page's Alerts section. */
export function AlertSettingsCard() {
  const { t } = useTranslation();
  const settings = useAccountAlertSettings();
  let content;
  if (settings.isPending) content = <p className="text-sm text-ink-muted">{t('table.loading')}</p>;
  else if (!settings.data) content = <p className="text-sm text-error">{t('alerts.loadFailed')}</p>;
  // A new copy from the server (saved, reset, read again) starts the form afresh.
  else content = <AlertSettingsForm key={settings.dataUpdatedAt} saved={settings.data} />;
  return (
    <Card aria-labelledby="account-alerts" id="alerts">
      <h2 id="account-alerts" className="text-lg font-semibold">
        {t('alerts.title')}
      </h2>
      <p className="mt-1 mb-5 text-sm text-ink-muted">{t('alerts.description')}</p>
      {content}
    </Card>
  );
}
