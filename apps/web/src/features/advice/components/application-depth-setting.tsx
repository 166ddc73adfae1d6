import type { ApplicationDepth } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApplicationDepth, useUpdateApplicationDepth } from '../api/application-depth';
import { parseDecimal } from '@/lib/decimal';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { useUser } from '@/lib/session';
import { Button } from '@/ui/button';
import { TextField } from '@/ui/form/text-field';
import { showToast } from '@/ui/toast/toast-store';
import { numberFormat } from '@/i18n/number-format';

/** The most a depth at 100 % may be, mm (ApplicationDepthBodySchema). */
const MAX_DEPTH = 100;

/**
 * The machine's depth at 100 %, which turns the advised doses into percent timers: administrators
 * type it in, or leave it empty to have it learned from the machine's reports. Others see nothing.
 */
export function ApplicationDepthSetting({ sprinklerId }: { sprinklerId: number }) {
  const user = useUser();
  if (!user?.admin) return null;
  return <ApplicationDepthForm sprinklerId={sprinklerId} />;
}

function ApplicationDepthForm({ sprinklerId }: { sprinklerId: number }) {
  const { t } = useTranslation();
  const { data } = useApplicationDepth(sprinklerId, true);
  if (data === undefined) return null;
  if (data === false) return <p className="text-sm text-ink-muted">{t('advice.depth.failed')}</p>;
  // Keyed by the setting: a stored change starts the field from what was stored.
  return <DepthFields key={String(data.setting)} sprinklerId={sprinklerId} depth={data} />;
}

function DepthFields({ sprinklerId, depth }: { sprinklerId: number; depth: ApplicationDepth }) {
  const { t, i18n } = useTranslation();
  const offlineReason = useOfflineReason();
  const update = useUpdateApplicationDepth();
  const mm = (value: number) => numberFormat(i18n.language, { maximumFractionDigits: 2 }).format(value);
  const [text, setText] = useState(depth.setting === null ? '' : mm(depth.setting));
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = text.trim() === '' ? null : parseDecimal(text);
    if (text.trim() !== '' && (typed === null || typed <= 0 || typed > MAX_DEPTH)) {
      setError(t('advice.depth.invalid'));
      return;
    }
    setError(undefined);
    if (await update.run(sprinklerId, typed)) {
      showToast({ variant: 'success', title: t(typed === null ? 'advice.depth.learnedAgain' : 'advice.depth.saved') });
    }
  };

  return (
    <form
      aria-labelledby="application-depth-title"
      className="flex flex-col gap-2 border-t border-line pt-3"
      onSubmit={(event) => void submit(event)}
    >
      <h3 id="application-depth-title" className="text-sm font-semibold">
        {t('advice.depth.title')}
      </h3>
      <p className="text-sm text-ink-muted">
        {depth.learned === null
          ? t('advice.depth.notLearned')
          : t('advice.depth.learned', { depth: mm(depth.learned), count: depth.learnedFrom })}
      </p>
      <TextField
        label={t('advice.depth.label')}
        hint={t('advice.depth.hint')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={error}
        inputMode="decimal"
        name="depthAtFullSpeed"
      />
      <Button
        type="submit"
        variant="secondary"
        className="self-start"
        disabled={update.isPending || offlineReason !== undefined}
        title={offlineReason}
      >
        {t('advice.depth.save')}
      </Button>
    </form>
  );
}
