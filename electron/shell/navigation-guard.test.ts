// The window shows only its own page: every other navigation is stopped, no window ever opens, no permission is granted.

import { describe, expect, it } from 'vitest';
import { APP_START_URL, blockNavigation, isAppPage, isSafeExternalUrl, permissionAllowed, windowOpenDecision } from './navigation-guard.js';

describe('navigation', () => {
  it('allows reloading the app page', () => {
    expect(blockNavigation(APP_START_URL)).toBe(false);
    expect(blockNavigation('app://exrview/')).toBe(false);
    expect(blockNavigation('app://exrview/index.html?x=1#y')).toBe(false);
  });

  it.each([
    'https://example.com/',
    'http://127.0.0.1:8080/',
    'file:///etc/passwd',
    'file:///tmp/dropped.exr',
    'javascript:alert(1)',
    'data:text/html,<script>1</script>',
    'app://exrview.evil/index.html',
    'app://evil/index.html',
    'app://user@exrview/index.html',
    'app://exrview:81/index.html',
    'app://exrview/assets/other.html',
    'about:blank',
    'devtools://devtools/bundled/inspector.html',
    'not a url',
    '',
  ])('blocks %s', (url) => {
    expect(blockNavigation(url)).toBe(true);
    expect(isAppPage(url)).toBe(false);
  });
});

describe('new windows', () => {
  it.each(['https://openexr.com/', 'app://exrview/index.html', 'file:///etc/passwd', 'javascript:alert(1)', 'http://example.com/'])(
    'never opens a window for %s',
    (url) => {
      expect(windowOpenDecision(url).action).toBe('deny');
    },
  );

  it('sends only plain https links to the system browser', () => {
    expect(windowOpenDecision('https://openexr.com/en/latest/').openExternally).toBe('https://openexr.com/en/latest/');
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'smb://host/share',
      'https://user:pw@example.com/',
      'javascript:alert(1)',
      'app://exrview/',
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false);
      expect(windowOpenDecision(url).openExternally, url).toBeNull();
    }
  });
});

describe('permissions', () => {
  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fileSystem', 'hid', 'serial', 'usb'])(
    'refuses %s',
    (permission) => {
      expect(permissionAllowed(permission)).toBe(false);
    },
  );
});
