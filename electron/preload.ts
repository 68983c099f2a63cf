// The preload (sandboxed): HostApi as window.exrview and menu commands as window.exrviewShell, over IPC; dropped files go to main.

import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadApi } from './shell/preload-api.js';
import { DROP_CHANNEL } from '../contract/shell-api.js';

const { host, shell } = createPreloadApi({
  invoke: (channel, args) => ipcRenderer.invoke(channel, args),
  send: (channel, args) => ipcRenderer.send(channel, args),
  on: (channel, listener) => {
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
});

contextBridge.exposeInMainWorld('exrview', host);
contextBridge.exposeInMainWorld('exrviewShell', shell);

// Files and folders dropped on the window open in the app. Only real user drops count (isTrusted), and the paths come from
// webUtils.getPathForFile, which gives "" for any File a script made: page script cannot make main open a path of its choosing.
window.addEventListener('dragover', (event) => event.preventDefault());
window.addEventListener('drop', (event) => {
  event.preventDefault();
  if (!event.isTrusted || !event.dataTransfer) return;
  const paths = [...event.dataTransfer.files].map((file) => webUtils.getPathForFile(file)).filter((path) => path !== '');
  if (paths.length) ipcRenderer.send(DROP_CHANNEL, paths);
});
