#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per file (or
// per package under node_modules), highest first.
//   node bench/tools/cpuprofile-top.js <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/tools/cpuprofile-top.js <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number.isInteger(Number(topArg)) ? Number(topArg) : 25;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
const dts = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (dts[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const fn = new Map();
const where = new Map();
const shortUrl = (url) => {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return `npm:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  return url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
};
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const loc = shortUrl(cf.url);
  const key = `${cf.functionName || '(anonymous)'}  ${loc}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  where.set(loc, (where.get(loc) ?? 0) + us);
}
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print('self time by function', fn);
print('self time by file / package', where);
