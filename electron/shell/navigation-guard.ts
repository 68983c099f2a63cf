// Navigation and window rules for the app window: it shows only its own page; links never open inside it.

/** The origin the renderer is served from in Electron (a registered, privileged custom scheme). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'exrview';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** True for the app's own page (app://exrview/ or /index.html). URL.origin is "null" for custom schemes: compare the parts. */
export function isAppPage(url: string): boolean {
  try {
    const u = new URL(url);
    return (
      u.protocol === `${APP_SCHEME}:` &&
      u.host === APP_HOST &&
      u.username === '' &&
      u.port === '' &&
      (u.pathname === '/' || u.pathname === '/index.html')
    );
  } catch {
    return false;
  }
}

/** will-navigate / will-redirect / will-frame-navigate: true when the navigation must be stopped (all but our own page). */
export function blockNavigation(url: string): boolean {
  return !isAppPage(url);
}

/** setWindowOpenHandler: the app never opens windows; http(s) links go to the system browser instead. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternally: string | null } {
  return { action: 'deny', openExternally: isSafeExternalUrl(url) ? url : null };
}

/** Only plain https links leave the app (to the default browser); file:, javascript:, custom schemes never. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/** Permission requests (camera, notifications, …): the viewer needs none. */
export function permissionAllowed(_permission: string): boolean {
  return false;
}
