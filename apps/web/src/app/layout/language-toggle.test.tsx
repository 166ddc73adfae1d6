import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { LanguageToggle } from './language-toggle';

describe('the language buttons', () => {
  it('are named starting with the code they show, so a voice command of what is seen finds them', async () => {
    await renderInApp(<LanguageToggle />, { locale: 'pl' });
    const buttons = within(screen.getByRole('group', { name: 'Język' })).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['PL', 'EN']);
    for (const button of buttons) {
      expect(button).toHaveAccessibleName(new RegExp(`^${button.textContent} – `));
    }
    expect(screen.getByRole('button', { name: 'EN – English' })).toHaveAttribute('aria-pressed', 'false');
  });
});
