// The TypeScript loader of test/run.js's processes, in place of `--import tsx`: registers
// ./ts-hooks.mjs (ES modules only) and turns on source maps for stack traces, as tsx does. tsx
// also installs CommonJS hooks and resolves more than this repository's sources need; in a test
// file's process that cost ~0.35 s of CPU at start and ~0.7 s more for the control plane's modules
// (the passes through its hooks). `npx tsx --test <file>` still runs any file on its own.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./ts-hooks.mjs', import.meta.url);
