/**
 * A private handlebars instance with kgen's templates. Templates only print: every decision is
 * made in the emitters' view models.
 *
 * templates/*.hbs are the source of truth. Compiling them (parsing, code generation, loading
 * handlebars' compiler) is a fixed cost of every cold run, so their precompiled form
 * (Handlebars.precompile) is kept in kgen's cache (generator/cache.ts) under a hash of the
 * handlebars version, the compile options and every template's name and text: a run that finds it
 * loads only handlebars' runtime. Without a cache, or when any template changed, the templates are
 * compiled here and the entry is proposed for write/ to store for the next run. Either way each
 * template runs as the same precompiled spec, so the output does not depend on the cache.
 * Templates are compiled knowing every helper (built-ins, `join`, and `str`/`strs`, which print a
 * value as a TypeScript string literal / an inline array of them), so a `{{name}}` is a plain
 * property lookup rather than a helper-or-property one; a template calling any other helper
 * fails to compile.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import runtimeModule from 'handlebars/runtime.js';
import { entryKey, proposeEntry, readEntry, type DerivedCache } from '../cache.js';

type Handlebars = typeof import('handlebars');
type TemplateDelegate = import('handlebars').TemplateDelegate;

const require = createRequire(import.meta.url);
const DIR = fileURLToPath(new URL('../../templates/', import.meta.url));
const OPTIONS = { noEscape: true, strict: true, knownHelpers: { join: true, str: true, strs: true }, knownHelpersOnly: true } as const;
/** Compiled as a partial (`{{> banner}}`), the rest by file name. */
const PARTIALS: Record<string, string> = { 'banner.hbs': 'banner' };
/** Bumped when the cache entry's layout changes. */
const FORMAT = 1;
const ENTRY_PREFIX = 'hbs-';

let templates: Map<string, TemplateDelegate> | undefined;

/**
 * Loads the templates once per process, from `cache` when it holds them (else compiled, and the
 * entry proposed to it). The generator calls it before emitting; render() loads without a cache
 * when nothing did.
 */
export function loadTemplates(cache?: DerivedCache): void {
  templates ??= load(cache);
}

export function render(name: string, view: object): string {
  const template = (templates ??= load(undefined)).get(name);
  if (!template) throw new Error(`no template ${name} in ${DIR}`);
  return template(view);
}

/** Every template, from the cached precompiled specs or compiled now. */
function load(cache: DerivedCache | undefined): Map<string, TemplateDelegate> {
  // Imported, not required, so that kgen's bundle (bin/loader/bundle.js) can hold it.
  const runtime = runtimeModule as unknown as Handlebars;
  const sources = readdirSync(DIR)
    .filter((n) => n.endsWith('.hbs'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(DIR, name), 'utf8') }));
  const version: string = runtime.VERSION;
  const key = entryKey(String(FORMAT), version, JSON.stringify(OPTIONS), ...sources.flatMap((s) => [s.name, s.text]));
  const entry = `${ENTRY_PREFIX}${key}.js`;
  let specs = readSpecs(readEntry(cache, entry));
  if (!specs) {
    const source = precompileAll(sources);
    specs = evaluate(source);
    proposeEntry(cache, entry, source, ENTRY_PREFIX);
  }
  const hbs = runtime.create();
  hbs.registerHelper('join', (items: string[], sep: string) => items.join(sep));
  hbs.registerHelper('str', (value: string) => stringLiteral(value));
  hbs.registerHelper('strs', (values: string[]) => `[${values.map(stringLiteral).join(', ')}]`);
  const out = new Map<string, TemplateDelegate>();
  for (const { name } of sources) {
    const template = hbs.template(specs[name] as never) as TemplateDelegate;
    if (PARTIALS[name]) hbs.registerPartial(PARTIALS[name], template);
    else out.set(name, template);
  }
  return out;
}

/**
 * A single-quoted TypeScript string literal holding exactly `value`. Values come from apis/ (enum
 * members, property names, marker values) and may hold quotes, backslashes and line terminators:
 * every character that could end the literal or the line (quote, backslash, CR, LF, U+2028,
 * U+2029) and every other control character is escaped, so no value can end the literal or break
 * the module.
 */
export function stringLiteral(value: string): string {
  return `'${UNSAFE_IN_LITERAL.test(value) ? value.replace(UNSAFE_IN_LITERAL_ALL, escapeInLiteral) : value}'`;
}

const UNSAFE_IN_LITERAL = /[\\'\x00-\x1f\x7f\u2028\u2029]/;
const UNSAFE_IN_LITERAL_ALL = new RegExp(UNSAFE_IN_LITERAL.source, 'g');
const SHORT_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeInLiteral(c: string): string {
  return SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The precompiled specs of a cache entry, or undefined when it is missing or unreadable. */
function readSpecs(source: string | undefined): Record<string, unknown> | undefined {
  if (source === undefined) return undefined;
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
