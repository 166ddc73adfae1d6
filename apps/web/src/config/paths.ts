import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales';

/**
 * Every screen of docs/product.md#screens: `pattern` is the route below the locale prefix, `link` builds an
 * unprefixed path to it (pass it through `localize` or use the app's Link components).
 */
export const paths = {
  home: { pattern: '', link: () => '/' },
  login: {
    pattern: 'login',
    link: (redirect?: string) => (redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'),
  },
  forgot: { pattern: 'forgot', link: () => '/forgot' },
  activation: {
    pattern: 'activation/:uid/:token',
    link: (uid: number, token: string) => `/activation/${uid}/${encodeURIComponent(token)}`,
  },
  setPassword: {
    pattern: 'set-password/:uid/:token',
    link: (uid: number, token: string) => `/set-password/${uid}/${encodeURIComponent(token)}`,
  },
  /** A farm's invitation mailed to a person (docs/roles.md, "Invitations"): accepted there, signed in or not. */
  invitation: {
    pattern: 'invitation/:id/:token',
    link: (id: number, token: string) => `/invitation/${id}/${encodeURIComponent(token)}`,
  },
  adminUsers: { pattern: 'admin/users', link: () => '/admin/users' },
  adminSprinklers: { pattern: 'admin/sprinklers', link: () => '/admin/sprinklers' },
  adminRejectedMessages: { pattern: 'admin/rejected-messages', link: () => '/admin/rejected-messages' },
  adminAlerts: { pattern: 'admin/alerts', link: () => '/admin/alerts' },
  adminBackups: { pattern: 'admin/backups', link: () => '/admin/backups' },
  sprinklers: { pattern: 'sprinklers', link: () => '/sprinklers' },
  /** A machine's page; with `anchor`, scrolled to that card of it (the Autopilot card's: AUTOPILOT_CARD_ANCHOR). */
  sprinkler: {
    pattern: 'sprinklers/:id',
    link: (id: number, anchor?: string) => (anchor ? `/sprinklers/${id}#${anchor}` : `/sprinklers/${id}`),
  },
  sector: {
    pattern: 'sprinklers/:id/:programId/:sector',
    link: (id: number, programId: number, sector: string) =>
      `/sprinklers/${id}/${programId}/${encodeURIComponent(sector)}`,
  },
  /** The farms the user belongs to (every farm for the server's administrators). */
  farms: { pattern: 'farms', link: () => '/farms' },
  /** A farm as its owners and managers run it: its members, their grants, its machines. */
  farm: { pattern: 'farms/:farmId', link: (farmId: number) => `/farms/${farmId}` },
  /** A dealer's fleet: the farms granted to the user's dealers, side by side. */
  dealer: { pattern: 'dealer', link: () => '/dealer' },
  account: { pattern: 'dashboard/account', link: () => '/dashboard/account' },
  activity: { pattern: 'dashboard/activity', link: () => '/dashboard/activity' },
} as const;

export function localePrefix(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`;
}

/** The path of an unprefixed link in a locale: '/login' → '/en/login', '/' → '/en'. */
export function localize(locale: Locale, link: string): string {
  const prefix = localePrefix(locale);
  if (!prefix) return link;
  return link === '/' || link.startsWith('/?') || link.startsWith('/#')
    ? `${prefix}${link.slice(1)}`
    : `${prefix}${link}`;
}

/** Splits a browser path into its locale and the unprefixed rest. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  for (const locale of LOCALES) {
    const prefix = localePrefix(locale);
    if (!prefix) continue;
    if (pathname === prefix) return { locale, path: '/' };
    if (pathname.startsWith(`${prefix}/`)) return { locale, path: pathname.slice(prefix.length) };
  }
  return { locale: DEFAULT_LOCALE, path: pathname };
}

/**
 * Pages where an expired session is expected: a 401 there does not send the user to the login
 * page, and they paint without waiting for the session (the login pages' HTML is rendered at build time).
 */
export function isSessionFreePath(pathname: string): boolean {
  const { path } = splitLocale(pathname);
  return (
    path === paths.login.link() ||
    path === paths.forgot.link() ||
    path.startsWith('/activation/') ||
    path.startsWith('/set-password/') ||
    path.startsWith('/invitation/')
  );
}

/**
 * A redirect target from a query string, kept only when it is a path on this site: anything
 * else ('//evil.example', 'https://…') could send a freshly signed-in user elsewhere.
 */
export function safeRedirect(target: string | null): string | null {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  return target;
}
