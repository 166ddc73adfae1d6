import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { Button, type ButtonVariant } from './button';
import { IconButton, type IconButtonVariant } from './icon-button';
import { BellIcon } from './other-icons';

const BUTTON_VARIANTS: ButtonVariant[] = ['primary', 'secondary', 'ghost', 'danger', 'link'];
const ICON_BUTTON_VARIANTS: IconButtonVariant[] = ['primary', 'secondary', 'ghost', 'link'];

describe('buttons', () => {
  it.each(BUTTON_VARIANTS)('%s is 36 px high and at least 88 px wide', async (variant) => {
    await renderInApp(<Button variant={variant}>{variant}</Button>);
    expect(screen.getByRole('button')).toHaveClass('h-9', 'min-w-[88px]');
  });

  it.each(ICON_BUTTON_VARIANTS)('icon button %s is named for screen readers', async (variant) => {
    await renderInApp(
      <IconButton variant={variant} label="Notifications">
        <BellIcon />
      </IconButton>,
    );
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });
});
