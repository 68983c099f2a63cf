// Renderer entry: connect to the host, make the store and controller, mount React.
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.js';
import { Controller } from './app/controller.js';
import { connectHost } from './host-client/index.js';
import { createAppStore } from './state/store.js';
import './ui/app.css';

const store = createAppStore();
const controller = new Controller(connectHost(), store);
declare global {
  interface Window {
    exrviewApp?: { controller: Controller; store: typeof store };
  }
}
window.exrviewApp = { controller, store };
createRoot(document.getElementById('root')!).render(<App controller={controller} />);
void controller
  .start()
  .catch((e: unknown) => controller.actions.setUi({ status: `could not start: ${e instanceof Error ? e.message : String(e)}` }));
