// The esbuild plugin that makes @kgen/client's browser build (build.js), also used by the browser
// test to bundle the sources: platform.js becomes platform.browser.ts (fetch), and the modules
// that need a process become node-only.browser.ts (stand-ins that say why they cannot run).
import { join } from 'node:path';

const NODE_ONLY = /^\.\/(kubeconfig|in-cluster|exec|credentials)\.js$/;

export const browserPlatform = {
  name: 'kgen-client-browser',
  setup(build) {
    build.onResolve({ filter: /^ws$/ }, (args) => ({ path: join(args.resolveDir, 'ws.browser.ts') }));
    build.onResolve({ filter: /^\.\/platform\.js$/ }, (args) => ({ path: join(args.resolveDir, 'platform.browser.ts') }));
    build.onResolve({ filter: NODE_ONLY }, (args) => (args.importer.endsWith('node-only.browser.ts') ? undefined : { path: join(args.resolveDir, 'node-only.browser.ts') }));
  },
};
