import { describe, expect, it } from 'vitest';
import { brandForHost } from './brands';
import { isSessionFreePath, localize, paths, safeRedirect, splitLocale } from './paths';

describe('locale paths', () => {
  it('leave Polish paths unprefixed and put English ones under /en', () => {
    expect(localize('pl', paths.account.link())).toBe('/dashboard/account');
    expect(localize('en', paths.account.link())).toBe('/en/dashboard/account');
    expect(localize('en', paths.home.link())).toBe('/en');
    expect(localize('en', paths.login.link('/en/dashboard/activity'))).toBe(
      '/en/login?redirect=%2Fen%2Fdashboard%2Factivity',
    );
  });

  it('split a path into its locale and the rest', () => {
    expect(splitLocale('/en/sprinklers/4')).toEqual({ locale: 'en', path: '/sprinklers/4' });
    expect(splitLocale('/en')).toEqual({ locale: 'en', path: '/' });
    expect(splitLocale('/engine')).toEqual({ locale: 'pl', path: '/engine' });
    expect(splitLocale('/login')).toEqual({ locale: 'pl', path: '/login' });
  });

  it('build links with their parameters', () => {
    expect(paths.sector.link(3, 9, 'north field')).toBe('/sprinklers/3/9/north%20field');
    expect(paths.activation.link(12, 'a-b_c')).toBe('/activation/12/a-b_c');
    expect(paths.invitation.link(7, 'x_Y-z')).toBe('/invitation/7/x_Y-z');
  });

  it('know the pages where an expired session does not send anyone to the login page', () => {
    expect(isSessionFreePath('/login')).toBe(true);
    expect(isSessionFreePath('/en/forgot')).toBe(true);
    expect(isSessionFreePath('/en/activation/1/x')).toBe(true);
    expect(isSessionFreePath('/set-password/1/x')).toBe(true);
    expect(isSessionFreePath('/invitation/3/x')).toBe(true);
    expect(isSessionFreePath('/en/invitation/3/x')).toBe(true);
    expect(isSessionFreePath('/dashboard/account')).toBe(false);
  });

  it('follow only redirects to a path on this site', () => {
    expect(safeRedirect('/en/dashboard/activity?type=unread')).toBe('/en/dashboard/activity?type=unread');
    expect(safeRedirect('//evil.example/x')).toBeNull();
    expect(safeRedirect('/\\evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
  });
});

describe('brands', () => {
  it('are chosen by host name, with Pivot as the default', () => {
    expect(brandForHost('panel.irrigo.pl').name).toBe('Irrigo');
    expect(brandForHost('agrowater.localhost').name).toBe('AgroWater');
    expect(brandForHost('localhost').name).toBe('Pivot');
    expect(brandForHost('irrigo.pl.evil.example').name).toBe('Pivot');
  });
});
