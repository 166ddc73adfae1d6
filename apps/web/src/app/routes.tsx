import { type ComponentType, useEffect, useState } from 'react';
import { type Params, Route, Routes, matchPath, useNavigate } from 'react-router';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@/config/locales';
import { useSecondFactorSetUpWhenRequired } from '@/features/account/hooks/use-second-factor-set-up-when-required';
import { localePrefix, localize, paths, splitLocale } from '@/config/paths';
import { type CataloguePart, activateLocale, i18n, loadCataloguePart } from '@/i18n/i18n';
import { onSessionExpired } from '@/lib/api-client';
import { markScreenShown } from '@/lib/first-screen';
import { restoredAccessToken, sessionCallSent } from '@/lib/restore-session';
import { whenIdle } from '@/lib/when-idle';
import { RainLoader } from '@/ui/global-loader';
import { RequireSignIn, SignedInScreens } from './layout/require-sign-in';
import { type PreloadableComponent, preloadableLazy } from './preloadable-lazy';
import { askSprinklerPage } from './routes/sprinkler-data';
import { RootLayout } from './layout/root-layout';

/** Renders a screen, telling lib/first-screen.ts when the first screen of the visit has rendered. */
function withShownMark(Screen: ComponentType): ComponentType {
  return function ShownScreen() {
    useEffect(() => markScreenShown(), []);
    return <Screen />;
  };
}

/**
 * A screen whose code is a chunk of its own, fetched when first shown, or earlier by preload(),
 * with the parts of the catalogue its texts are in beside the base (both arrive before it shows).
 * A screen whose code has come before its first render renders at once, without suspending: the
 * page prerendered at build time (app/prerender.tsx) is replaced by the same screen, never by
 * the loader for a moment.
 */
function screen(load: () => Promise<ComponentType>, parts: readonly CataloguePart[] = []): PreloadableComponent {
  return preloadableLazy(async () => {
    const [Component] = await Promise.all([load(), ...parts.map((part) => loadCataloguePart(part))]);
    return { default: withShownMark(Component) };
  });
}

/** A screen whose texts are in the `machines` part of the catalogue, and in the other parts given. */
const machineScreen = (load: () => Promise<ComponentType>, parts: readonly CataloguePart[] = []) =>
  screen(load, ['machines', ...parts]);

/**
 * A screen of what only a signed-in user sees beside the machines: the home, account and activity
 * screens' texts (the machine screens do without them; the header's menus fetch them later).
 */
const signedInScreen = (load: () => Promise<ComponentType>, parts: readonly CataloguePart[] = []) =>
  screen(load, ['signedIn', ...parts]);

/**
 * An administration screen: its texts, the programs' and the alerts' (shown there too), the API's
 * error codes' (a refused registration or webhook is named in its own place) and a user's fields
 * (the users' forms).
 */
const adminScreen = (load: () => Promise<ComponentType>) =>
  machineScreen(load, ['admin', 'programs', 'signedIn', 'errorCodes', 'auth', 'tables']);
/** The administration's five screens are one chunk, asked for from one place. */
const loadAdminScreens = () => import('./routes/admin');

/** A farms screen: its texts are the `farms` part's. */
const farmsScreen = (load: () => Promise<ComponentType>) => screen(load, ['farms']);
/** Both farms screens are one chunk, asked for from one place (one list of its files in the entry). */
const loadFarmsScreens = () => import('./routes/farms');

/** A screen that signs a user in or sets a password: its texts are the `auth` part's. */
const authScreen = (load: () => Promise<ComponentType>) => screen(load, ['auth']);
/** Both password screens are one chunk, asked for from one place. */
const loadPasswordScreens = () => import('./routes/set-password');

const PUBLIC_SCREENS: readonly (readonly [string, PreloadableComponent])[] = [
  [paths.login.pattern, authScreen(async () => (await import('./routes/login')).LoginRoute)],
  [paths.forgot.pattern, authScreen(async () => (await import('./routes/forgot')).ForgotRoute)],
  [paths.activation.pattern, authScreen(async () => (await loadPasswordScreens()).ActivationRoute)],
  [paths.setPassword.pattern, authScreen(async () => (await loadPasswordScreens()).SetPasswordRoute)],
  [
    paths.invitation.pattern,
    screen(async () => (await import('./routes/invitation')).InvitationRoute, ['auth', 'invitation']),
  ],
];
const SIGNED_IN_SCREENS: readonly (readonly [string, PreloadableComponent])[] = [
  [paths.home.pattern, signedInScreen(async () => (await import('./routes/home')).HomeRoute)],
  // Its webhooks card names a refused webhook in its own place; its forms, a user's fields and passwords.
  [
    paths.account.pattern,
    screen(async () => (await import('./routes/account')).AccountRoute, ['signedIn', 'errorCodes', 'auth', 'tables']),
  ],
  [paths.activity.pattern, signedInScreen(async () => (await import('./routes/activity')).ActivityRoute, ['tables'])],
  [paths.farms.pattern, farmsScreen(async () => (await loadFarmsScreens()).FarmsRoute)],
  [paths.farm.pattern, farmsScreen(async () => (await loadFarmsScreens()).FarmRoute)],
  [paths.dealer.pattern, screen(async () => (await import('./routes/dealer')).DealerRoute, ['dealers'])],
  [paths.adminUsers.pattern, adminScreen(async () => (await loadAdminScreens()).AdminUsersRoute)],
  [paths.adminSprinklers.pattern, adminScreen(async () => (await loadAdminScreens()).AdminSprinklersRoute)],
  [paths.adminRejectedMessages.pattern, adminScreen(async () => (await loadAdminScreens()).AdminRejectedMessagesRoute)],
  [paths.adminAlerts.pattern, adminScreen(async () => (await loadAdminScreens()).AdminAlertsRoute)],
  [paths.adminBackups.pattern, adminScreen(async () => (await loadAdminScreens()).AdminBackupsRoute)],
  [
    paths.sprinklers.pattern,
    machineScreen(async () => (await import('./routes/sprinklers')).SprinklersRoute, ['machineList', 'tables']),
  ],
  [paths.sprinkler.pattern, machineScreen(async () => (await import('./routes/sprinkler')).SprinklerRoute)],
  [paths.sector.pattern, machineScreen(async () => (await import('./routes/sector')).SectorRoute, ['programs'])],
];
const NotFoundRoute = screen(async () => (await import('./routes/not-found')).NotFoundRoute);

type ScreenData = (params: Params, search: URLSearchParams) => void;

/**
 * The data a signed-in screen asks for first, known from its address. It is asked for as soon as
 * the session's token is back, beside the user's details and the screen's code, rather than once
 * the screen has rendered after them; the code that asks is the entry's own (a few hundred bytes,
 * without the screen's libraries), so the calls do not wait for the screen's files either.
 */
const SCREEN_DATA: readonly (readonly [string, ScreenData])[] = [[paths.sprinkler.pattern, askSprinklerPage]];

/**
 * How long a signed-in screen's code waits for the session's call to leave first, ms. The call
 * leaves once the refresh lock is granted, which a busy phone's main thread takes a few hundred
 * milliseconds to get to: at 50 ms the screen's files went first there (docs/benchmarks.md).
 */
const SESSION_HEAD_START_MS = 300;
/** However busy the main thread, the locale data is loaded no later than this, ms. */
const NUMBER_FORMAT_WARM_UP_MAX_WAIT_MS = 1000;

/**
 * Starts fetching the code of the screen at an address, and the first data it shows, so that
 * they arrive while the app starts. For a screen shown without a session (the login pages, the
 * not-found page) it resolves once the screen's code has come.
 */
export async function preloadScreen(pathname: string, search: string): Promise<void> {
  const { path } = splitLocale(pathname);
  const found = [...PUBLIC_SCREENS, ...SIGNED_IN_SCREENS].find(([pattern]) => matchPath(`/${pattern}`, path));
  const screenCode = found?.[1] ?? NotFoundRoute;
  if (!found || !SIGNED_IN_SCREENS.includes(found)) {
    await screenCode.preload();
    return;
  }
  // A signed-in screen paints once the session is back, so the session's call leaves before the
  // screen's thirty-odd files are asked for: over HTTP/1.1 a browser keeps six connections to a
  // server, and a call asked for after them waits its turn (a second on a phone's link), with the
  // screen's data behind it. Another tab refreshing holds the call back (the refresh lock); it
  // must not hold the screen's code back with it. (A login page paints without the session: its
  // few files go first.)
  await Promise.race([sessionCallSent(), new Promise((resolve) => setTimeout(resolve, SESSION_HEAD_START_MS))]);
  // Then the screen's first data, asked for by the entry's own code once the token is back, and
  // the screen's code while the data is on its way. (The schemas its answers are read with come
  // after the screen has shown them: lib/checked-later.ts.)
  for (const [pattern, ask] of SCREEN_DATA) {
    const match = matchPath(`/${pattern}`, path);
    if (!match) continue;
    void restoredAccessToken().then((token) => {
      if (token) ask(match.params, new URLSearchParams(search));
    });
  }
  // The signed-in screens' server state too: a screen that suspended for it would be shown 300 ms
  // late (app/preloadable-lazy.ts).
  void SignedInScreens.preload();
  void screenCode.preload();
  // A page's first number format has the browser load its locale data: 70–100 ms of the main
  // thread here, four times that on an emulated phone (docs/benchmarks.md). Made in an idle moment
  // while the screen's data is on its way, not in the render that shows it.
  const { locale } = splitLocale(pathname);
  whenIdle(() => void new Intl.NumberFormat(locale).format(0), NUMBER_FORMAT_WARM_UP_MAX_WAIT_MS);
}

/** Every screen of docs/product.md#screens, below one locale's prefix. */
function Screens() {
  return (
    <Routes>
      {PUBLIC_SCREENS.map(([pattern, Screen]) => (
        <Route key={pattern} path={pattern} element={<Screen />} />
      ))}
      <Route element={<RequireSignIn />}>
        {SIGNED_IN_SCREENS.map(([pattern, Screen]) =>
          pattern === paths.home.pattern ? (
            <Route key={pattern} index element={<Screen />} />
          ) : (
            <Route key={pattern} path={pattern} element={<Screen />} />
          ),
        )}
      </Route>
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}

/** The pages of one locale: its catalogue is loaded (and remembered in the cookie) before they show. */
function LocaleRoot({ locale }: { locale: Locale }) {
  const navigate = useNavigate();
  const [ready, setReady] = useState(() => i18n.language === locale && i18n.hasResourceBundle(locale, 'translation'));

  useEffect(() => {
    let current = true;
    void activateLocale(locale).then(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [locale]);

  // docs/product.md#screens: a session that cannot be renewed sends the user to log in, and back here afterwards.
  useEffect(
    () =>
      onSessionExpired(
        (currentPath) => void navigate(localize(locale, paths.login.link(currentPath)), { replace: true }),
      ),
    [locale, navigate],
  );

  useSecondFactorSetUpWhenRequired(locale);

  if (!ready) return <RainLoader />;
  return (
    <RootLayout>
      <Screens />
    </RootLayout>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      {LOCALES.filter((locale) => locale !== DEFAULT_LOCALE).map((locale) => (
        <Route key={locale} path={`${localePrefix(locale)}/*`} element={<LocaleRoot locale={locale} />} />
      ))}
      <Route path="/*" element={<LocaleRoot locale={DEFAULT_LOCALE} />} />
    </Routes>
  );
}
