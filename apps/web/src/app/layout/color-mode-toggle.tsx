import { useTranslation } from 'react-i18next';
import { toggleColorMode, useColorMode } from '@/lib/color-mode';
import { IconButton } from '@/ui/icon-button';
import { MoonIcon, SunIcon } from '@/ui/icons';

/** Light ⇄ dark; disabled where a page forces a mode. */
export function ColorModeToggle() {
  const { t } = useTranslation();
  const { mode, forced } = useColorMode();
  return (
    <IconButton
      label={mode === 'dark' ? t('header.lightMode') : t('header.darkMode')}
      onClick={toggleColorMode}
      disabled={forced !== null}
      data-mode={mode}
    >
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </IconButton>
  );
}
