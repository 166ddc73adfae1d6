import { useTranslation } from 'react-i18next';
import { currentBrand } from '@/config/brands';
import { paths } from '@/config/paths';
import { loadCataloguePart } from '@/i18n/i18n';
import { useSession } from '@/lib/session';
import { laterPart } from '@/app/later-part';
import { AppLink } from '@/ui/link';
import { ColorModeToggle } from './color-mode-toggle';
import { LanguageToggle } from './language-toggle';

/**
 * The menus and alerts of a signed-in user, and their texts: fetched once the first screen has
 * shown its data (lib/after-first-screen.ts), as the screen's own code and data come first. If
 * the connection goes before they came, an icon says so and they come when it is back.
 */
const SignedInControls = laterPart(
  async () => {
    await (await import('@/lib/after-first-screen')).afterFirstScreen();
    const [controls] = await Promise.all([
      import('./signed-in-controls'),
      loadCataloguePart('signedIn'),
      // The notifications' menu says it is loading as the tables do.
      loadCataloguePart('tables'),
    ]);
    return controls.default;
  },
  { compact: true },
);

export function Header() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <header className="sticky top-0 z-20 border-b border-line bg-surface/95 px-4 backdrop-blur sm:px-6">
      <div className="mx-auto flex h-14 max-w-[1600px] items-center gap-2 sm:gap-3">
        <AppLink
          to={paths.home.link()}
          aria-label={t('header.home', { brand: currentBrand.name })}
          className="mr-auto flex items-center gap-2 rounded-md"
        >
          <img src={currentBrand.logo} alt="" width={32} height={32} className="size-8" />
          <span className="hidden text-lg font-bold tracking-tight min-[400px]:inline">{currentBrand.name}</span>
        </AppLink>
        <LanguageToggle />
        <ColorModeToggle />
        {session.status === 'signed-in' && <SignedInControls />}
      </div>
    </header>
  );
}
