// The Content-Security-Policy of the renderer page, in Electron and in browser mode: our own scripts only, nothing inline.

export interface CspOptions {
  /** Extra sources for fetch/WebSocket (browser mode: the ws:// address of the event stream). */
  connectSrc?: string[];
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    // React sets styles through the CSSOM, which CSP does not restrict; no inline <style> or style="" needed
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'blob:', 'data:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(options.connectSrc ?? [])]],
    ['worker-src', ["'self'", 'blob:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}
