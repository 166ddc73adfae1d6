import { useState } from 'react';
import { useTranslation } from 'react-i18next';

type Drop = { id: number; size: number; left: number; delay: number; duration: number };

/** docs/product.md#limits: 6 to 11 drops, each 7 to 30 px. */
export const MIN_DROPS = 6;
export const MAX_DROPS = 11;
export const MIN_DROP_SIZE = 7;
export const MAX_DROP_SIZE = 30;

function between(min: number, max: number, random: () => number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function rainDrops(random: () => number = Math.random): Drop[] {
  return Array.from({ length: between(MIN_DROPS, MAX_DROPS, random) }, (_, id) => ({
    id,
    size: between(MIN_DROP_SIZE, MAX_DROP_SIZE, random),
    left: between(4, 92, random),
    delay: random() * 1.2,
    duration: 1.1 + random() * 0.9,
  }));
}

/** Rain falling over a caption: shown while the app starts or a screen loads. */
export function RainLoader({ overlay = false }: { overlay?: boolean }) {
  const { t } = useTranslation();
  const [drops] = useState(() => rainDrops());
  return (
    <div
      role="status"
      className={`flex flex-col items-center justify-center gap-4 ${
        overlay ? 'fixed inset-0 z-30 bg-canvas/80 backdrop-blur-[2px]' : 'min-h-[60vh]'
      }`}
    >
      <div aria-hidden="true" className="relative h-28 w-44 overflow-hidden">
        {drops.map((drop) => (
          <svg
            key={drop.id}
            viewBox="0 0 24 32"
            className="absolute top-6 fill-water opacity-0 motion-reduce:opacity-70"
            style={{
              left: `${drop.left}%`,
              width: drop.size,
              height: (drop.size * 4) / 3,
              animation: `rain-fall ${drop.duration}s ease-in ${drop.delay}s infinite`,
            }}
          >
            <path d="M12 1S2 13.5 2 20a10 10 0 0 0 20 0C22 13.5 12 1 12 1z" />
          </svg>
        ))}
      </div>
      <p className="text-base font-medium text-ink-muted">{t('loader.caption')}</p>
    </div>
  );
}
