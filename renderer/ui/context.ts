// React access to the controller and its store (selectors re-render only on the slice they read).
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { Controller } from '../app/controller.js';
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
