import { useTranslation } from 'react-i18next';
import { useHydrated } from '@/config/create-store';
import { toggleColorMode, useColorMode } from '@/lib/color-mode';
import { IconButton } from '@/ui/icon-button';
import { MoonIcon, SunIcon } from '@/ui/icons';

/**
 * Light ⇄ dark; disabled where a page forces a mode, and on a page rendered at build time until the
 * app runs it (a click before then would be lost).
 */
export function ColorModeToggle() {
  const { t } = useTranslation();
  const { mode, forced } = useColorMode();
  const hydrated = useHydrated();
  return (
    <IconButton
      label={mode === 'dark' ? t('header.lightMode') : t('header.darkMode')}
      onClick={toggleColorMode}
      disabled={forced !== null || !hydrated}
      data-mode={mode}
    >
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </IconButton>
  );
}
