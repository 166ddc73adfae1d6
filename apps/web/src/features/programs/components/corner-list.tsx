import type { Position } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { inputClasses } from '@/ui/form/field-frame';
import { IconButton } from '@/ui/icon-button';
import { ChevronDownIcon, CloseIcon } from '@/ui/other-icons';
import { roundedPosition } from '../lib/sector-form';
import { MIN_CORNERS } from '../lib/shape-validity';
import { parseDecimal } from '@/lib/decimal';

const ROW = 'grid grid-cols-[1.5rem_minmax(0,1fr)_minmax(0,1fr)_auto] items-center gap-1.5 sm:gap-2';

type CoordinateInputProps = {
  label: string;
  value: number;
  limit: number;
  onChange: (value: number) => void;
};

/** A latitude or longitude in degrees; what is typed applies once it is a number within range. */
function CoordinateInput({ label, value, limit, onChange }: CoordinateInputProps) {
  // While the field has focus it shows what is typed; otherwise the corner as it stands (moved on the map, say).
  const [typed, setTyped] = useState<string | null>(null);
  const text = typed ?? String(value);
  const inRange = (typed: string) => {
    const degrees = parseDecimal(typed);
    return degrees !== null && Math.abs(degrees) <= limit ? degrees : null;
  };
  const valid = inRange(text) !== null;
  return (
    <input
      type="text"
      inputMode="decimal"
      aria-label={label}
      aria-invalid={valid ? undefined : true}
      value={text}
      onFocus={() => setTyped(String(value))}
      onBlur={() => setTyped(null)}
      onChange={(event) => {
        setTyped(event.target.value);
        const next = inRange(event.target.value);
        if (next !== null) onChange(next);
      }}
      className={`${inputClasses(!valid)} min-w-0 px-2! text-sm tabular-nums`}
    />
  );
}

export type CornerListProps = {
  corners: readonly Position[];
  onChange: (corners: Position[]) => void;
  /** Where a corner added to an empty shape goes: the middle of the field. */
  centre: Position;
};

/**
 * The corners of the shape as numbers: the keyboard's way to draw and correct a sector (and a
 * precise one for everybody), beside the pointer's way on the map.
 */
export function CornerList({ corners, onChange, centre }: CornerListProps) {
  const { t } = useTranslation();
  const set = (index: number, corner: Position) =>
    onChange(corners.map((item, at) => (at === index ? corner : [item[0], item[1]])));
  const remove = (index: number) => onChange(corners.filter((_, at) => at !== index).map((item) => [item[0], item[1]]));
  // A new corner goes halfway between the last and the first, where the shape closes.
  const add = () => {
    const first = corners[0];
    const last = corners[corners.length - 1];
    const next =
      first && last
        ? roundedPosition((first[0] + last[0]) / 2, (first[1] + last[1]) / 2)
        : roundedPosition(centre[0], centre[1]);
    onChange([...corners.map((item): Position => [item[0], item[1]]), next]);
  };

  return (
    <details className="group rounded-lg border border-line bg-surface">
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-3 font-medium [&::-webkit-details-marker]:hidden">
        <ChevronDownIcon className="size-4 shrink-0 -rotate-90 transition-transform group-open:rotate-0" />
        {t('programs.sector.corners.title', { count: corners.length })}
      </summary>
      <div className="flex flex-col gap-3 border-t border-line p-3">
        <p className="text-sm text-ink-muted">{t('programs.sector.corners.hint')}</p>
        {corners.length > 0 && (
          <div aria-hidden="true" className={`${ROW} text-xs font-semibold text-ink-muted`}>
            <span />
            <span>{t('programs.sector.corners.latitudeHeader')}</span>
            <span>{t('programs.sector.corners.longitudeHeader')}</span>
            <span className="w-9" />
          </div>
        )}
        {corners.length > 0 && (
          <ol className="flex flex-col gap-2">
            {corners.map((corner, index) => (
              // Corners have no identity but their place in the ring.
              <li key={index} className={ROW}>
                <span className="text-sm font-medium tabular-nums">{index + 1}.</span>
                <CoordinateInput
                  label={t('programs.sector.corners.latitude', { number: index + 1 })}
                  value={corner[1]}
                  limit={90}
                  onChange={(latitude) => set(index, [corner[0], latitude])}
                />
                <CoordinateInput
                  label={t('programs.sector.corners.longitude', { number: index + 1 })}
                  value={corner[0]}
                  limit={180}
                  onChange={(longitude) => set(index, [longitude, corner[1]])}
                />
                <IconButton
                  label={t('programs.sector.corners.remove', { number: index + 1 })}
                  disabled={corners.length === MIN_CORNERS}
                  onClick={() => remove(index)}
                >
                  <CloseIcon className="size-4" />
                </IconButton>
              </li>
            ))}
          </ol>
        )}
        <div>
          <Button variant="secondary" onClick={add}>
            {t('programs.sector.corners.add')}
          </Button>
        </div>
      </div>
    </details>
  );
}
