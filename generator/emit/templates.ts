/**
 * A private handlebars instance with kgen's templates. Templates only print: every decision is
 * made in the emitters' view models.
 *
 * templates/*.hbs are the source of truth. Compiling them (parsing, code generation, loading
 * handlebars' compiler) is a fixed cost of every cold run, so their precompiled form
 * (Handlebars.precompile) is kept in kgen's cache directory (bin/loader/cache-dir.js) under a hash
 * of the handlebars version, the compile options and every template's name and text: a run that
 * finds it loads only handlebars' runtime. Without a cache directory, or when any template
 * changed, the templates are compiled here and the entry is written for the next run. Either way
 * each template runs as the same precompiled spec, so the output does not depend on the cache.
 * Templates are compiled knowing every helper (built-ins and `join`), so a `{{name}}` is a plain
 * property lookup rather than a helper-or-property one; a template calling any other helper
 * fails to compile.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import runtimeModule from 'handlebars/runtime.js';
import { cacheDir, sha1, writeAtomic } from '../../bin/loader/cache-dir.js';

type Handlebars = typeof import('handlebars');
type TemplateDelegate = import('handlebars').TemplateDelegate;

const require = createRequire(import.meta.url);
const DIR = fileURLToPath(new URL('../../templates/', import.meta.url));
const OPTIONS = { noEscape: true, strict: true, knownHelpers: { join: true }, knownHelpersOnly: true } as const;
/** Compiled as a partial (`{{> banner}}`), the rest by file name. */
const PARTIALS: Record<string, string> = { 'banner.hbs': 'banner' };
/** Bumped when the cache entry's layout changes. */
const FORMAT = 1;
/** Entries of other template states are removed once unused this long (another kgen may share the directory). */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

let templates: Map<string, TemplateDelegate> | undefined;

export function render(name: string, view: object): string {
  const template = (templates ??= load()).get(name);
  if (!template) throw new Error(`no template ${name} in ${DIR}`);
  return template(view);
}

/** Every template, from the cached precompiled specs or compiled now. */
function load(): Map<string, TemplateDelegate> {
  // Imported, not required, so that kgen's bundle (bin/loader/bundle.js) can hold it.
  const runtime = runtimeModule as unknown as Handlebars;
  const sources = readdirSync(DIR)
    .filter((n) => n.endsWith('.hbs'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(DIR, name), 'utf8') }));
  const version: string = runtime.VERSION;
  const key = sha1(String(FORMAT), version, JSON.stringify(OPTIONS), ...sources.flatMap((s) => [s.name, s.text]));
  const dir = cacheDir();
  const entry = dir && join(dir, `hbs-${key}.js`);
  let specs = entry ? readSpecs(entry) : undefined;
  if (!specs) {
    const source = precompileAll(sources);
    specs = evaluate(source);
    if (dir && entry && writeAtomic(entry, source)) prune(dir, entry);
  }
  const hbs = runtime.create();
  hbs.registerHelper('join', (items: string[], sep: string) => items.join(sep));
  const out = new Map<string, TemplateDelegate>();
  for (const { name } of sources) {
    const template = hbs.template(specs[name] as never) as TemplateDelegate;
    if (PARTIALS[name]) hbs.registerPartial(PARTIALS[name], template);
    else out.set(name, template);
  }
  return out;
}

/** The precompiled specs of a cache entry, or undefined when it is missing or unreadable. */
function readSpecs(entry: string): Record<string, unknown> | undefined {
  let source: string;
  try {
    source = readFileSync(entry, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return evaluate(source);
  } catch {
    return undefined;
  }
}

/** One JS expression: an object of template name → precompiled spec. */
function precompileAll(sources: { name: string; text: string }[]): string {
  const compiler: Handlebars = require('handlebars');
  const entries = sources.map(({ name, text }) => `${JSON.stringify(name)}: ${compiler.precompile(text, { ...OPTIONS })}`);
  return `({\n${entries.join(',\n')}\n})`;
}

function evaluate(source: string): Record<string, unknown> {
  return new Function(`return ${source};`)() as Record<string, unknown>;
}

/** Removes the entries of other template states not written or read for PRUNE_AFTER_MS. */
function prune(dir: string, keep: string): void {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (!name.startsWith('hbs-') || path === keep) continue;
      const st = statSync(path);
      if (now - Math.max(st.mtimeMs, st.atimeMs) > PRUNE_AFTER_MS) rmSync(path, { force: true });
    }
  } catch {
    // Pruning is housekeeping only.
  }
}
