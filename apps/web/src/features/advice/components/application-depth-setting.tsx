import { type ApplicationDepth, MAX_HOURS_PER_CIRCLE } from '@pivot/contracts';
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
 * The machine's pace at 100 %: the depth, which turns the advised doses into percent timers, and
 * the hours a circle takes, which times the arm to each sector. Administrators type them in, or
 * leave them empty to have them learned from the machine's reports. Others see nothing.
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
  // Keyed by the settings: a stored change starts the fields from what was stored.
  return <DepthFields key={`${data.setting}/${data.hoursPerCircleSetting}`} sprinklerId={sprinklerId} depth={data} />;
}

function DepthFields({ sprinklerId, depth }: { sprinklerId: number; depth: ApplicationDepth }) {
  const { t, i18n } = useTranslation();
  const offlineReason = useOfflineReason();
  const update = useUpdateApplicationDepth();
  const decimal = (value: number) => numberFormat(i18n.language, { maximumFractionDigits: 2 }).format(value);
  const [text, setText] = useState(depth.setting === null ? '' : decimal(depth.setting));
  const [hoursText, setHoursText] = useState(
    depth.hoursPerCircleSetting === null ? '' : decimal(depth.hoursPerCircleSetting),
  );
  const [error, setError] = useState<string | undefined>();
  const [hoursError, setHoursError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = readOptional(text, MAX_DEPTH);
    const hours = readOptional(hoursText, MAX_HOURS_PER_CIRCLE);
    setError(typed === undefined ? t('advice.depth.invalid') : undefined);
    setHoursError(hours === undefined ? t('advice.depth.invalidHours') : undefined);
    if (typed === undefined || hours === undefined) return;
    if (await update.run(sprinklerId, { depthAtFullSpeed: typed, hoursPerCircle: hours })) {
      const learnedAgain = typed === null && hours === null;
      showToast({ variant: 'success', title: t(learnedAgain ? 'advice.depth.learnedAgain' : 'advice.depth.saved') });
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
          : t('advice.depth.learned', {
              depth: decimal(depth.learned),
              hours: decimal(depth.hoursPerCircleLearned ?? 0),
              count: depth.learnedFrom,
            })}
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
      <TextField
        label={t('advice.depth.hoursLabel')}
        hint={t('advice.depth.hoursHint')}
        value={hoursText}
        onChange={(event) => setHoursText(event.target.value)}
        error={hoursError}
        inputMode="decimal"
        name="hoursPerCircle"
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

/** A typed value above 0 and at most `max`; null when empty, undefined when it is not one. */
function readOptional(text: string, max: number): number | null | undefined {
  if (text.trim() === '') return null;
  const value = parseDecimal(text);
  return value === null || value <= 0 || value > max ? undefined : value;
}
