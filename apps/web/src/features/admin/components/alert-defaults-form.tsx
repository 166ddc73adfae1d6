import type { AlertDefaults } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { AlertChannelsField, IncidentKindsField } from '@/ui/form/alert-choice-fields';
import { WarningIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useAlertDefaults } from '../api/get-alert-defaults';
import { useUpdateAlertDefaults } from '../api/update-alert-defaults';

function AlertDefaultsFields({ saved }: { saved: AlertDefaults }) {
  const { t } = useTranslation();
  const update = useUpdateAlertDefaults();
  const [values, setValues] = useState(saved);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // What the server stored comes back through the cache, and starts the form afresh.
    if (!(await update.run(values))) return;
    showToast({ variant: 'success', title: t('admin.alerts.saved') });
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-6">
      <div className="grid gap-6 md:grid-cols-2">
        <IncidentKindsField
          legend={t('admin.alerts.kinds')}
          value={values.kinds}
          onChange={(kinds) => setValues({ ...values, kinds })}
          disabled={update.isPending}
        />
        <AlertChannelsField
          legend={t('admin.alerts.channels')}
          value={values.channels}
          onChange={(channels) => setValues({ ...values, channels })}
          disabled={update.isPending}
        />
      </div>
      {(values.kinds.length === 0 || values.channels.length === 0) && (
        <p role="status" className="flex items-start gap-2 rounded-lg bg-warning-soft p-3 text-sm font-medium">
          <WarningIcon className="mt-0.5 size-4 shrink-0 text-warning" />
          {t('alerts.nothingChosen')}
        </p>
      )}
      <div>
        <Button type="submit" disabled={update.isPending}>
          {t('admin.alerts.save')}
        </Button>
      </div>
    </form>
  );
}

/** The alert defaults: what users who have not chosen their own get (administrators). */
export function AlertDefaultsForm() {
  const { t } = useTranslation();
  const defaults = useAlertDefaults();
  let content;
  if (defaults.isPending) content = <p className="text-sm text-ink-muted">{t('table.loading')}</p>;
  else if (!defaults.data) content = <p className="text-sm text-error">{t('admin.alerts.loadFailed')}</p>;
  else content = <AlertDefaultsFields key={defaults.dataUpdatedAt} saved={defaults.data} />;
  return <Card aria-label={t('admin.alerts.title')}>{content}</Card>;
}
