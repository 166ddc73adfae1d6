import { type ReactNode, useEffect } from 'react';
import { currentBrand } from '@/config/brands';

export type PageProps = {
  title: string;
  /** A line under the title. */
  description?: ReactNode;
  /** Buttons on the title's right (below it on a phone). */
  actions?: ReactNode;
  /** Narrow pages (forms) read better than ones stretched across a wide screen; maps want it all. */
  width?: 'narrow' | 'wide' | 'full';
  children?: ReactNode;
};

const WIDTH_CLASSES = { narrow: 'max-w-md', wide: 'max-w-5xl', full: 'max-w-[1600px]' } as const;

/** A screen's title (also the browser tab's) and its content. */
export function Page({ title, description, actions, width = 'wide', children }: PageProps) {
  useEffect(() => {
    document.title = `${title} · ${currentBrand.name}`;
  }, [title]);
  return (
    <div className={`mx-auto flex w-full flex-col gap-6 ${WIDTH_CLASSES[width]}`}>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          {description && <p className="text-ink-muted">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </header>
      {children}
    </div>
  );
}
