// Full screen through the Fullscreen API (browser and Electron alike), and a hook that follows it (Esc leaves it too).
import { useEffect, useState } from 'react';

export function toggleFullscreen(doc: Document = document): void {
  if (doc.fullscreenElement) void doc.exitFullscreen().catch(() => {});
  // refused (no user gesture, or an iframe without permission): nothing to undo, the window stays as it is
  else void doc.documentElement.requestFullscreen?.().catch(() => {});
}

export function useFullscreen(): boolean {
  const [on, setOn] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const follow = (): void => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', follow);
    return () => document.removeEventListener('fullscreenchange', follow);
  }, []);
  return on;
}
