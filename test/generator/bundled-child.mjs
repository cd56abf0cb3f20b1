/**
 * Runs a TypeScript child of write.test.ts (write-crash-child.ts, write-lock-child.ts) as kgen runs
 * its own entry modules (bin/loader/bundle.js's importBundled): bundled once by esbuild into the
 * cache directory, then plain node, with no loader hooks thread.
 *
 *   node test/generator/bundled-child.mjs <child.ts> <its arguments…>
 *
 * The child sees its usual argv (process.argv[1] is the .ts file).
 */
import { pathToFileURL } from 'node:url';
import { importBundled } from '../../bin/loader/index.js';

const entry = process.argv[2];
process.argv.splice(1, 1);
await importBundled(pathToFileURL(entry));
