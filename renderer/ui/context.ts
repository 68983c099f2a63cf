// React access to the controller, its store (selectors re-render only on the slice they read) and its engine.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { useStore } from 'zustand';
import type { Controller } from '../app/controller.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import type { AppState } from '../state/store.js';

export const ControllerContext = createContext<Controller | null>(null);

export function useController(): Controller {
  const c = useContext(ControllerContext);
  if (!c) throw new Error('no controller');
  return c;
}

export function useApp<T>(select: (s: AppState) => T): T {
  return useStore(useController().store, select);
}

/** The engine once the controller has started it (null before): the component renders again when it arrives. */
export function useEngine(): ViewEngine | null {
  const c = useController();
  return useSyncExternalStore(
    (changed) => c.subscribe(changed),
    () => c.engine,
  );
}
