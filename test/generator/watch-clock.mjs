/**
 * A clock a test can stop, for a `kgen generate --watch` child of cli.test.ts, which it starts as
 *
 *   node test/generator/watch-clock.mjs bin/kgen.js generate … --watch   (with an IPC channel)
 *
 * and which then runs bin/kgen.js as `node bin/kgen.js …` would (same argv from [1] on; no
 * --import, so node's flags, and with them kgen's V8 code cache, are a plain run's). The
 * watcher's settle counts on performance.now(): a result is written, or its errors printed, only
 * once SETTLE_MS have passed since the last event. Between the parent's 'stop' and 'go' messages
 * performance.now() stands still, so the settle cannot run out while the test makes a save's
 * steps, however long a loaded machine takes between them; after 'go' the clock carries on from
 * where it stood (the stopped time is not counted).
 *
 * With KGEN_TEST_REPORT_READS=<suffix>, every readFileSync of a path ending with the suffix is
 * reported to the parent as { read: path, text }: the test knows what the watcher's compile read.
 * Each message is answered ('stopped', 'going') once it has taken effect.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const realNow = performance.now.bind(performance);
let stoppedAt;
let lost = 0;
performance.now = () => (stoppedAt ?? realNow()) - lost;

const suffix = process.env.KGEN_TEST_REPORT_READS;
if (suffix) {
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (path, ...rest) {
    const content = readFileSync.call(this, path, ...rest);
    if (typeof path === 'string' && path.endsWith(suffix)) process.send?.({ read: path, text: String(content) });
    return content;
  };
  // ES module imports of node:fs (kgen's bundle) see the wrapper too.
  syncBuiltinESMExports();
}

process.on('message', (message) => {
  if (message === 'stop') {
    stoppedAt ??= realNow();
    process.send?.('stopped');
  } else if (message === 'go') {
    if (stoppedAt !== undefined) lost += realNow() - stoppedAt;
    stoppedAt = undefined;
    process.send?.('going');
  }
});
// The channel alone does not keep the watcher alive: SIGTERM ends it as before.
process.channel?.unref();

const entry = resolve(process.argv[2]);
process.argv.splice(1, 1);
await import(pathToFileURL(entry).href);
