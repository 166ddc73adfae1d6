import type { ErrorCode, Webhook, WebhookTestResult } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { TextField } from '@/ui/form/text-field';
import { showToast } from '@/ui/toast/toast-store';
import { useAddWebhook } from '../api/add-webhook';
import { useDeleteWebhook } from '../api/delete-webhook';
import { type WebhookPlace, useWebhooks } from '../api/get-webhooks';
import { useSendWebhookTest } from '../api/send-webhook-test';
import { useSetWebhookPaused } from '../api/update-webhook';

function WebhookStatus({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation();
  if (!webhook.paused) return <Badge tone="success">{t('webhooks.active')}</Badge>;
  return <Badge tone="warning">{t(webhook.pausedByServer ? 'webhooks.pausedByServer' : 'webhooks.paused')}</Badge>;
}

/** One webhook: where, how it fares, and what can be done with it. */
function WebhookItem({ place, webhook }: { place: WebhookPlace; webhook: Webhook }) {
  const { t } = useTranslation();
  const dates = useDateTimeFormat();
  const sendTest = useSendWebhookTest();
  const setPaused = useSetWebhookPaused();
  const remove = useDeleteWebhook();
  const [tested, setTested] = useState<WebhookTestResult | null>(null);
  const busy = sendTest.isPending || setPaused.isPending || remove.isPending;

  const test = async () => {
    const result = await sendTest.run(place, webhook.id);
    if (!result) return;
    setTested(result);
    showToast(
      result.delivered
        ? { variant: 'success', title: t('webhooks.testDelivered', { status: result.status }) }
        : { variant: 'warning', title: t('webhooks.testFailed', { error: result.error }) },
    );
  };

  const confirmRemove = async () => {
    const confirmed = await confirmDialog({
      title: t('webhooks.deleteTitle'),
      message: t('webhooks.deleteMessage', { url: webhook.url }),
      left: t('dialog.cancel'),
      right: t('webhooks.delete'),
    });
    if (confirmed) await remove.run(place, webhook.id);
  };

  return (
    <li className="flex flex-col gap-3 rounded-lg border border-line p-4" aria-label={webhook.url}>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 text-sm break-all">{webhook.url}</code>
        <WebhookStatus webhook={webhook} />
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-ink-muted">{t('webhooks.lastDelivery')}</dt>
        <dd>
          {webhook.lastDeliveryAt === null ? t('webhooks.never') : dates.dateTimeToSecond(webhook.lastDeliveryAt)}
        </dd>
        {webhook.lastError !== null && (
          <>
            <dt className="text-ink-muted">{t('webhooks.lastError')}</dt>
            <dd className="break-all text-error">{webhook.lastError}</dd>
          </>
        )}
        <dt className="text-ink-muted">{t('webhooks.secret')}</dt>
        <dd>
          <code className="text-xs break-all select-all">{webhook.secret}</code>
        </dd>
      </dl>
      {tested && (
        <p role="status" className={`text-sm font-medium ${tested.delivered ? 'text-success' : 'text-error'}`}>
          {tested.delivered
            ? t('webhooks.testDelivered', { status: tested.status })
            : t('webhooks.testFailed', { error: tested.error })}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={busy} onClick={() => void test()}>
          {t('webhooks.sendTest')}
        </Button>
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() => void setPaused.run(place, webhook.id, !webhook.paused)}
        >
          {t(webhook.paused ? 'webhooks.resume' : 'webhooks.pause')}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={() => void confirmRemove()}>
          {t('webhooks.delete')}
        </Button>
      </div>
    </li>
  );
}

function AddWebhookForm({ place }: { place: WebhookPlace }) {
  const { t } = useTranslation();
  const add = useAddWebhook();
  const [url, setUrl] = useState('');
  const [refusal, setRefusal] = useState<ErrorCode | null | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await add.run(place, url.trim());
    if (!result.ok) {
      setRefusal(result.refusal);
      return;
    }
    setRefusal(undefined);
    setUrl('');
    showToast({ variant: 'success', title: t('webhooks.added') });
  };

  let error: string | undefined;
  if (refusal === 'validation_error') error = t('webhooks.urlHint');
  else if (refusal) error = t(`errorCodes.${refusal}.message`);
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="min-w-0 flex-1">
        <TextField
          label={t('webhooks.urlLabel')}
          hint={t('webhooks.urlHint')}
          type="url"
          inputMode="url"
          value={url}
          error={error}
          onChange={(event) => setUrl(event.target.value)}
          disabled={add.isPending}
        />
      </div>
      <Button type="submit" disabled={add.isPending || url.trim() === ''}>
        {add.isPending ? t('webhooks.adding') : t('webhooks.add')}
      </Button>
    </form>
  );
}

/** Webhooks: on the account page a user's own, in the admin panel those for every alert. */
export function WebhooksCard({ place }: { place: WebhookPlace }) {
  const { t } = useTranslation();
  const webhooks = useWebhooks(place);
  let list;
  if (webhooks.isPending) list = <p className="text-sm text-ink-muted">{t('table.loading')}</p>;
  else if (!webhooks.data) list = <p className="text-sm text-error">{t('webhooks.loadFailed')}</p>;
  else if (webhooks.data.length === 0) list = <p className="text-sm text-ink-muted">{t('webhooks.empty')}</p>;
  else
    list = (
      <ul className="flex flex-col gap-3">
        {webhooks.data.map((webhook) => (
          <WebhookItem key={webhook.id} place={place} webhook={webhook} />
        ))}
      </ul>
    );
  const headingId = `${place}-webhooks`;
  return (
    <Card aria-labelledby={headingId} id="webhooks">
      <h2 id={headingId} className="text-lg font-semibold">
        {t('webhooks.title')}
      </h2>
      <p className="mt-1 mb-5 text-sm text-ink-muted">
        {t(place === 'account' ? 'webhooks.description' : 'webhooks.adminDescription')}
      </p>
      <div className="flex flex-col gap-5">
        {list}
        <AddWebhookForm place={place} />
      </div>
    </Card>
  );
}
