import type { FarmDetail, FarmMember } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '@/ui/toast/toast-store';
import { type MachineAccess, useChangeMachineAccess } from '../api/change-machine-access';

const ACCESS_CHOICES: readonly MachineAccess[] = ['none', 'watch', 'control'];

type Machine = FarmDetail['machines'][number];

/** One machine's level for one member: none, watch or control, sent as soon as it is picked. */
function AccessSelect({ member, name, machine }: { member: FarmMember; name: string; machine: Machine }) {
  const { t } = useTranslation();
  const change = useChangeMachineAccess();
  // What was picked, shown until the farm has been read again with it (or the call failed).
  const [asked, setAsked] = useState<MachineAccess | null>(null);
  const current: MachineAccess = member.grants.find((grant) => grant.sprinklerId === machine.id)?.level ?? 'none';
  const shown = asked ?? current;

  const pick = async (access: MachineAccess) => {
    setAsked(access);
    const changed = await change.run(machine.id, member.id, access);
    setAsked(null);
    if (!changed) return;
    showToast({
      variant: 'success',
      title: t('farms.access.changed.title'),
      message: t(`farms.access.changed.${access}`, { name, machine: machine.name }),
    });
  };

  return (
    <li className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
      <span className="min-w-0 flex-1 basis-32 [overflow-wrap:anywhere]">{machine.name}</span>
      <select
        aria-label={t('farms.access.of', { name, machine: machine.name })}
        value={shown}
        disabled={change.isPending}
        onChange={(event) => void pick(event.target.value as MachineAccess)}
        className={`h-8 shrink-0 rounded-md border border-line bg-surface px-2 text-sm font-medium disabled:opacity-60 ${
          shown === 'none' ? 'text-ink-muted' : shown === 'control' ? 'text-water' : 'text-ink'
        }`}
      >
        {ACCESS_CHOICES.map((access) => (
          <option key={access} value={access}>
            {t(`farms.access.levels.${access}`)}
          </option>
        ))}
      </select>
    </li>
  );
}

/**
 * What a member may use of the farm's machines, each editable. Owners and managers control every
 * machine of the farm whatever their grants: that is said instead.
 */
export function MemberAccess({ member, name, machines }: { member: FarmMember; name: string; machines: Machine[] }) {
  const { t } = useTranslation();
  if (member.role !== 'member') return <span className="text-ink-muted">{t('farms.access.runsFarm')}</span>;
  if (machines.length === 0) return <span className="text-ink-muted">{t('farms.access.noMachines')}</span>;
  return (
    <ul aria-label={t('farms.access.listLabel', { name })} className="flex flex-col gap-2 sm:min-w-56">
      {machines.map((machine) => (
        <AccessSelect key={machine.id} member={member} name={name} machine={machine} />
      ))}
    </ul>
  );
}
