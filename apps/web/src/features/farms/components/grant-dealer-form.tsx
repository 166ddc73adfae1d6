import { ACCESS_LEVELS, type AccessLevel, type FarmDetail } from '@pivot/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { DateField } from '@/ui/date-picker/date-field';
import { FIELD_FORMAT, addDays, parseDate, startOfDay } from '@/ui/date-picker/dates';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { SelectField } from '@/ui/form/select-field';
import { ErrorIcon, PlusIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useDealers } from '../api/get-dealers';
import { useGrantDealer } from '../api/grant-dealer';

type Machine = FarmDetail['machines'][number];

/** The end of a day typed in the field (the grant works through it), null for none, undefined if unreadable or past. */
function endOfDay(text: string, now = new Date()): number | null | undefined {
  if (text.trim() === '') return null;
  const day = parseDate(text, FIELD_FORMAT);
  if (!day || day < startOfDay(now)) return undefined;
  return addDays(day, 1).getTime() - 1;
}

/**
 * A farm's owners and managers grant a dealer watch or control over all the farm's machines
 * (those it gains later too) or the ones they tick, until the end of a day or until revoked.
 * Granting a dealer again replaces its grant.
 */
export function GrantDealerForm({ farm, machines }: { farm: { id: number; name: string }; machines: Machine[] }) {
  const { t } = useTranslation();
  const scopeName = useId();
  const { data: dealers } = useDealers();
  const grant = useGrantDealer();
  const [dealerId, setDealerId] = useState('');
  const [level, setLevel] = useState<AccessLevel>('watch');
  const [all, setAll] = useState(true);
  const [picked, setPicked] = useState<readonly number[]>([]);
  const [until, setUntil] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const expiresAt = endOfDay(until);
  const dealer = dealers ? dealers.find((candidate) => String(candidate.id) === dealerId) : undefined;
  const errors = {
    dealer: submitted && !dealer ? t('farms.grant.dealerRequired') : undefined,
    machines: submitted && !all && picked.length === 0 ? t('farms.grant.machinesRequired') : undefined,
    until: submitted && expiresAt === undefined ? t('farms.grant.invalidDate') : undefined,
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!dealer || (!all && picked.length === 0) || expiresAt === undefined) return;
    const granted = await grant.run(farm.id, dealer.id, { level, machines: all ? 'all' : [...picked], expiresAt });
    if (!granted) return;
    showToast({
      variant: 'success',
      title: t('farms.grant.done.title'),
      message: t(`farms.grant.done.${level}`, { dealer: dealer.name, farm: farm.name }),
    });
    setDealerId('');
    setLevel('watch');
    setAll(true);
    setPicked([]);
    setUntil('');
    setSubmitted(false);
  };

  const toggle = (machineId: number, on: boolean) =>
    setPicked((current) => (on ? [...current, machineId] : current.filter((id) => id !== machineId)));

  return (
    <Card aria-labelledby="grant-dealer">
      <h2 id="grant-dealer" className="mb-1 text-lg font-semibold">
        {t('farms.grant.title')}
      </h2>
      <p className="mb-4 text-sm text-ink-muted">{t('farms.grant.description')}</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <SelectField
          label={t('farms.grant.dealer')}
          value={dealerId}
          onChange={(event) => setDealerId(event.target.value)}
          error={errors.dealer}
          options={[
            { value: '', label: dealers ? t('farms.grant.chooseDealer') : t('farms.grant.loadingDealers') },
            ...(dealers || []).map((option) => ({ value: String(option.id), label: option.name })),
          ]}
        />
        <SelectField
          label={t('farms.grant.level')}
          value={level}
          onChange={(event) => setLevel(event.target.value as AccessLevel)}
          options={ACCESS_LEVELS.map((option) => ({ value: option, label: t(`farms.access.levels.${option}`) }))}
        />
        <fieldset
          className="flex min-w-0 flex-col gap-2"
          aria-describedby={errors.machines ? `${scopeName}-error` : undefined}
        >
          <legend className="mb-1 text-sm font-medium">{t('farms.grant.machines')}</legend>
          <label className="flex items-center gap-2.5 text-sm">
            <input
              type="radio"
              name={scopeName}
              checked={all}
              onChange={() => setAll(true)}
              className="size-5 shrink-0 accent-primary"
            />
            {t('farms.grant.allMachines')}
          </label>
          <label className="flex items-center gap-2.5 text-sm">
            <input
              type="radio"
              name={scopeName}
              checked={!all}
              disabled={machines.length === 0}
              onChange={() => setAll(false)}
              className="size-5 shrink-0 accent-primary"
            />
            {t('farms.grant.someMachines')}
          </label>
          {!all && (
            <div className="ml-7 flex flex-col gap-2">
              {machines.map((machine) => (
                <CheckboxField
                  key={machine.id}
                  label={machine.name}
                  checked={picked.includes(machine.id)}
                  onChange={(event) => toggle(machine.id, event.target.checked)}
                />
              ))}
            </div>
          )}
          {errors.machines && (
            <p id={`${scopeName}-error`} className="flex items-start gap-1.5 text-sm font-medium text-error">
              <ErrorIcon className="mt-0.5 size-4 shrink-0" />
              {errors.machines}
            </p>
          )}
        </fieldset>
        <DateField
          placement="above"
          label={t('farms.grant.until')}
          hint={t('farms.grant.untilHint')}
          value={until}
          onChange={setUntil}
          error={errors.until}
        />
        <div>
          <Button type="submit" disabled={grant.isPending} icon={<PlusIcon className="size-4" />}>
            {grant.isPending ? t('farms.grant.pending') : t('farms.grant.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
