import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { Locale } from '@/config/locales';
import { localize, paths } from '@/config/paths';
import { onApiFailure } from '@/lib/api-client';

/** The account page's card where two-step sign-in is set up (second-factor-card.tsx). */
export const SECOND_FACTOR_CARD_ID = 'account-second-factor';

/**
 * On a server that requires two-step sign-in of administrators (REQUIRE_ADMIN_2FA), every call
 * of one without it answers `second_factor_required`: they are taken to the account page's
 * card where it is set up, the one place open to them (docs/two-factor.md). The refusal's toast
 * says why.
 */
export function useSecondFactorSetUpWhenRequired(locale: Locale): void {
  const navigate = useNavigate();
  useEffect(
    () =>
      onApiFailure((failure) => {
        if (failure.error?.code !== 'second_factor_required') return;
        const account = localize(locale, paths.account.link());
        if (location.pathname !== account) void navigate(`${account}#${SECOND_FACTOR_CARD_ID}`);
      }),
    [locale, navigate],
  );
}
