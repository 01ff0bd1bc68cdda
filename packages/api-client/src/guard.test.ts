import { describe, expect, it } from 'vitest';
import { guardNavigation, requiresLogin, returnPathAfterLogin } from './guard.ts';

describe('guardNavigation (spec 4)', () => {
  it('sends a signed-in rider away from the login page, home, replacing history', () => {
    expect(guardNavigation({ to: '/login', from: '/product', loggedIn: true })).toEqual({
      action: 'redirect',
      to: '/',
      replace: true,
      noGoBack: false,
    });
    expect(
      guardNavigation({ to: '/login?x=1', from: null, loggedIn: true, home: '/dashboard/main' }),
    ).toMatchObject({ action: 'redirect', to: '/dashboard/main' });
  });

  it('sends a visitor on a signed-in path to /login with the no-go-back flag and the way back', () => {
    expect(
      guardNavigation({ to: '/dashboard/workouts/list?page=2', from: '/', loggedIn: false }),
    ).toEqual({
      action: 'redirect',
      to: '/login?redirect=%2Fdashboard%2Fworkouts%2Flist%3Fpage%3D2',
      replace: true,
      noGoBack: true,
    });
    for (const path of ['/upload/gpxFile', '/developer/mydevices/', '/dashboard'])
      expect(guardNavigation({ to: path, from: null, loggedIn: false }).action).toBe('redirect');
  });

  it('lets everything else through and reports the previous path to record', () => {
    expect(guardNavigation({ to: '/product/xossg2', from: '/', loggedIn: false })).toEqual({
      action: 'proceed',
      previousPath: '/',
    });
    expect(guardNavigation({ to: '/dashboard/main', from: '/login', loggedIn: true })).toEqual({
      action: 'proceed',
      previousPath: '/login',
    });
    expect(guardNavigation({ to: '/login', from: null, loggedIn: false }).action).toBe('proceed');
    // Look-alike prefixes are not the signed-in area.
    expect(requiresLogin('/dashboards')).toBe(false);
  });

  it('takes the configured white list and login rule', () => {
    const decision = guardNavigation({
      to: '/post/new',
      from: null,
      loggedIn: false,
      requiresLogin: (path) => path === '/post/new',
    });
    expect(decision).toMatchObject({ action: 'redirect', noGoBack: true });
    expect(
      guardNavigation({ to: '/', from: null, loggedIn: true, whiteList: ['/login', '/'] }).action,
    ).toBe('redirect');
  });
});

describe('returnPathAfterLogin', () => {
  it('returns to the path the rider was going to, never off-site or back to login', () => {
    expect(returnPathAfterLogin('?redirect=%2Fdashboard%2Fdevice%2Flist')).toBe(
      '/dashboard/device/list',
    );
    for (const bad of [
      '?redirect=https%3A%2F%2Fevil.example',
      '?redirect=%2F%2Fevil.example',
      '?redirect=%2Flogin',
      '',
      '?redirect=%2F%5Cevil',
    ])
      expect(returnPathAfterLogin(bad)).toBe('/dashboard/main');
  });
});
