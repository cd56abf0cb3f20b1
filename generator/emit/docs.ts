/**
 * The HTML API reference (`kgen docs`, and `generated/docs/` that `kgen serve` serves at /docs/):
 * static pages in the spirit of crd-ref-docs and gen-crd-api-reference-docs, from the model.
 *
 *   docs/index.html                  every group, version and kind, and a search box
 *   docs/<group>_<version>.html      one page per group/version: each kind (description, scope,
 *                                    short names, categories, subresources, printer columns, a
 *                                    YAML example from @example/@default), its fields (types
 *                                    linked to their definitions, validation with CEL rules and
 *                                    messages, defaults, immutability, deprecation), the named
 *                                    types, and the kind's versions side by side with what changed
 *   docs/search.js, docs/style.css   the client-side search index and the style
 *
 * Everything is local: no fonts, scripts or styles from elsewhere, so the pages make no external
 * request. Element ids are stable: `<Kind>` for a kind, `<Kind>.<field.path>` for its fields,
 * `type-<Name>` and `type-<Name>.<field>` for named types (tests look them up).
 */
import type { ApiModel, ApiVersion, Kind, NamedType, Property, Schema } from '../model.js';
import { assertNever } from '../model.js';
import { partsFile, type EmittedFile } from './emitted.js';
import { stringifyYaml } from './yaml.js';
import { IMMUTABLE_RULE } from '../parse/validations.js';

export interface DocsOptions {
  /** Which versions to document (default: all); kgen documents the user's, not its built-ins. */
  include?: (version: ApiVersion) => boolean;
  title?: string;
}

// Most text has nothing to escape: tested once instead of four replacing passes.
const esc = (s: string) => (/[&<>"]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : s);

export function pageName(version: { group: string; name: string }): string {
  return `${version.group || 'core'}_${version.name}.html`;
}

const apiVersionOf = (v: { group: string; name: string }) => (v.group ? `${v.group}/${v.name}` : v.name);

interface SearchEntry {
  /** What is shown and matched: `Widget.spec.replicas`. */
  t: string;
  /** Extra text matched: the group/version and the description's start. */
  d: string;
  /** Link, relative to the docs root. */
  h: string;
}

/** A type as text, with a link when it names a type of the page. */
function typeHTML(s: Schema): string {
  switch (s.type) {
    case 'string':
      return s.enum ? `string (enum)` : s.format ? `string (${esc(s.format)})` : 'string';
    case 'integer':
      return s.format ? `integer (${esc(s.format)})` : 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `[]${typeHTML(s.items)}`;
    case 'map':
      return `map[string]${typeHTML(s.values)}`;
    case 'object':
      return 'object';
    case 'ref':
      return `<a href="#type-${esc(s.name)}">${esc(s.name)}</a>`;
    case 'wellKnown':
      return `<span class="wk" title="a Kubernetes type (meta/v1)">${esc(s.name)}</span>`;
    case 'intOrString':
      return 'int-or-string';
    case 'quantity':
      return 'Quantity';
    case 'time':
      return 'Time (RFC 3339)';
    case 'duration':
      return 'Duration';
    case 'unknown':
      return 'any (preserved)';
    default:
      return assertNever(s, 'schema');
  }
}

function typeText(s: Schema): string {
  return typeHTML(s).replace(/<[^>]+>/g, '');
}

/** Validation, default, immutability and deprecation of a field, as list items. */
function constraints(s: Schema): string[] {
  const out: string[] = [];
  const add = (label: string, value: unknown) => out.push(`<li><span class="k">${label}</span> <code>${esc(typeof value === 'string' ? value : JSON.stringify(value))}</code></li>`);
  if (s.minimum !== undefined) add('minimum', s.minimum);
  if (s.exclusiveMinimum !== undefined) add('exclusive minimum', s.exclusiveMinimum);
  if (s.maximum !== undefined) add('maximum', s.maximum);
  if (s.exclusiveMaximum !== undefined) add('exclusive maximum', s.exclusiveMaximum);
  if (s.multipleOf !== undefined) add('multiple of', s.multipleOf);
  if (s.minLength !== undefined) add('min length', s.minLength);
  if (s.maxLength !== undefined) add('max length', s.maxLength);
  if (s.pattern !== undefined) add('pattern', s.pattern);
  if (s.minItems !== undefined) add('min items', s.minItems);
  if (s.maxItems !== undefined) add('max items', s.maxItems);
  if (s.minProperties !== undefined) add('min properties', s.minProperties);
  if (s.maxProperties !== undefined) add('max properties', s.maxProperties);
  if (s.uniqueItems) out.push('<li><span class="k">unique items</span></li>');
  if (s.listType) add('list type', s.listMapKeys?.length ? `${s.listType} (keys: ${s.listMapKeys.join(', ')})` : s.listType);
  if (s.type === 'string' && s.enum) add('one of', s.enum.join(', '));
  if (s.default !== undefined) add('default', s.default);
  if (s.nullable) out.push('<li><span class="k">nullable</span></li>');
  for (const rule of s.validations ?? []) {
    if (rule.rule === IMMUTABLE_RULE.rule) {
      out.push('<li><span class="badge immutable">immutable</span></li>');
      continue;
    }
    const message = rule.message ?? rule.messageExpression;
    out.push(`<li><span class="k">rule</span> <code>${esc(rule.rule)}</code>${message ? ` — ${esc(message)}` : ''}</li>`);
  }
  return out;
}

interface FieldRow {
  path: string;
  prop: Property;
  depth: number;
}

/** The fields of an object, nested inline objects (not named types) flattened with dotted paths. */
function fieldRows(props: readonly Property[], prefix = '', depth = 0): FieldRow[] {
  const rows: FieldRow[] = [];
  for (const prop of props) {
    const path = prefix ? `${prefix}.${prop.name}` : prop.name;
    rows.push({ path, prop, depth });
    let inner: Schema = prop.schema;
    while (inner.type === 'array') inner = inner.items;
    while (inner.type === 'map') inner = inner.values;
    if (inner.type === 'object') rows.push(...fieldRows(inner.properties, path, depth + 1));
  }
  return rows;
}

function fieldTable(idPrefix: string, rows: FieldRow[], search: SearchEntry[], page: string, label: string, gv: string): string {
  if (rows.length === 0) return '<p class="muted">No fields.</p>';
  const body = rows
    .map(({ path, prop, depth }) => {
      const s = prop.schema;
      const id = `${idPrefix}.${path}`;
      const badges = [prop.optional ? '' : '<span class="badge required">required</span>', s.deprecated ? '<span class="badge deprecated">deprecated</span>' : ''].join('');
      const list = constraints(s);
      search.push({ t: `${label}.${path}`, d: `${gv} ${typeText(s)} ${(s.description ?? '').slice(0, 120)}`, h: `${page}#${id}` });
      return `<tr id="${esc(id)}" class="field${s.deprecated ? ' is-deprecated' : ''}"><td class="name${depth ? ` d${Math.min(depth, MAX_INDENT)}` : ''}"><a class="anchor" href="#${esc(id)}">${esc(prop.name)}</a>${badges}<div class="path">${esc(path)}</div></td><td class="type">${typeHTML(s)}</td><td>${s.description ? `<p>${esc(s.description)}</p>` : ''}${list.length ? `<ul class="constraints">${list.join('')}</ul>` : ''}</td></tr>`;
    })
    .join('\n');
  return `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Description and validation</th></tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A value for the YAML example: @example, then @default, then a placeholder of the type. */
function exampleValue(s: Schema, types: Map<string, NamedType>, depth = 0): unknown {
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (depth > 6) return undefined;
  switch (s.type) {
    case 'string':
      return s.enum?.[0] ?? (s.format === 'date-time' ? '2024-01-01T00:00:00Z' : 'string');
    case 'integer':
      return s.minimum !== undefined && s.minimum > 1 ? s.minimum : 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array': {
      const item = exampleValue(s.items, types, depth + 1);
      return item === undefined ? [] : [item];
    }
    case 'map': {
      const value = exampleValue(s.values, types, depth + 1);
      return value === undefined ? {} : { key: value };
    }
    case 'object':
      return exampleObject(s.properties, types, depth + 1);
    case 'ref': {
      const t = types.get(s.name);
      return t ? exampleValue(t.schema, types, depth + 1) : undefined;
    }
    case 'wellKnown':
      return s.name === 'LabelSelector' ? { matchLabels: { app: 'example' } } : s.name === 'ObjectReference' ? { kind: 'Kind', name: 'name' } : undefined;
    case 'intOrString':
      return 1;
    case 'quantity':
      return '1Gi';
    case 'time':
      return '2024-01-01T00:00:00Z';
    case 'duration':
      return '1m';
    case 'unknown':
      return {};
    default:
      return assertNever(s, 'schema');
  }
}

/** Required fields, and optional ones that have an @example or @default. */
function exampleObject(props: readonly Property[], types: Map<string, NamedType>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of props) {
    if (p.optional && p.schema.example === undefined && p.schema.default === undefined) continue;
    const v = exampleValue(p.schema, types, depth);
    if (v !== undefined) out[p.name] = v;
  }
  return out;
}

function yamlExample(version: ApiVersion, kind: Kind, types: Map<string, NamedType>): string {
  const metadata: Record<string, unknown> = { name: `example-${kind.singular}` };
  if (kind.scope === 'Namespaced') metadata.namespace = 'default';
  const fields = exampleObject(
    kind.schema.properties.filter((p) => p.name !== 'status'),
    types,
    0,
  );
  return stringifyYaml({ apiVersion: apiVersionOf(version), kind: kind.name, metadata, ...fields });
}

/** Field paths of a kind with their types, for the versions comparison (named types expanded once). */
function flatTypes(kind: Kind, types: Map<string, NamedType>): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (props: readonly Property[], prefix: string, seen: Set<string>) => {
    for (const p of props) {
      const path = prefix ? `${prefix}.${p.name}` : p.name;
      out.set(path, typeText(p.schema) + (p.optional ? '' : ' (required)'));
      let inner: Schema = p.schema;
      while (inner.type === 'array') inner = inner.items;
      while (inner.type === 'map') inner = inner.values;
      if (inner.type === 'object') walk(inner.properties, path, seen);
      if (inner.type === 'ref' && !seen.has(inner.name)) {
        const t = types.get(inner.name);
        if (t?.schema.type === 'object') walk(t.schema.properties, path, new Set([...seen, inner.name]));
      }
    }
  };
  walk(kind.schema.properties, '', new Set());
  return out;
}

function versionsSection(kind: Kind, version: ApiVersion, all: ApiVersion[]): string {
  const others = all.filter((v) => v.group === version.group && v.kinds.some((k) => k.name === kind.name));
  if (others.length < 2) return '';
  const columns = others.map((v) => ({ v, kind: v.kinds.find((k) => k.name === kind.name)!, fields: flatTypes(v.kinds.find((k) => k.name === kind.name)!, new Map(v.types.map((t) => [t.name, t]))) }));
  const paths = [...new Set(columns.flatMap((c) => [...c.fields.keys()]))].sort();
  const rows = paths
    .map((path) => {
      const cells = columns.map((c) => c.fields.get(path));
      const changed = new Set(cells.map((c) => c ?? '—')).size > 1;
      return `<tr class="${changed ? 'changed' : ''}"><td class="path">${esc(path)}</td>${cells.map((c) => `<td>${c ? esc(c) : '<span class="muted">absent</span>'}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const head = columns
    .map((c) => {
      const flags = [c.kind.storageVersion ? 'storage' : '', c.kind.unserved ? 'unserved' : '', c.kind.deprecated ? 'deprecated' : ''].filter(Boolean).join(', ');
      const label = `${esc(apiVersionOf(c.v))}${flags ? ` <span class="muted">(${flags})</span>` : ''}`;
      return `<th>${c.v === version ? label : `<a href="${pageName(c.v)}#${esc(kind.name)}">${label}</a>`}</th>`;
    })
    .join('');
  const changedCount = paths.filter((p) => new Set(columns.map((c) => c.fields.get(p) ?? '—')).size > 1).length;
  return `<details class="versions" open><summary>Versions side by side (${changedCount} field${changedCount === 1 ? '' : 's'} differ)</summary><table class="compare"><thead><tr><th>Field</th>${head}</tr></thead><tbody>\n${rows}\n</tbody></table></details>`;
}

function facts(kind: Kind): string {
  const rows: [string, string][] = [
    ['Scope', kind.scope],
    ['Resource', `<code>${esc(kind.plural)}</code> (singular <code>${esc(kind.singular)}</code>)`],
  ];
  if (kind.shortNames.length) rows.push(['Short names', kind.shortNames.map((n) => `<code>${esc(n)}</code>`).join(', ')]);
  if (kind.categories.length) rows.push(['Categories', kind.categories.map((n) => `<code>${esc(n)}</code>`).join(', ')]);
  const subs: string[] = [];
  if (kind.subresources.status) subs.push('<code>status</code>');
  if (kind.subresources.scale) subs.push(`<code>scale</code> (replicas <code>${esc(kind.subresources.scale.specReplicasPath)}</code> → <code>${esc(kind.subresources.scale.statusReplicasPath)}</code>)`);
  for (const c of kind.subresources.custom ?? []) subs.push(`<code>${esc(c.name)}</code> (${c.verbs.join(', ')})`);
  if (subs.length) rows.push(['Subresources', subs.join(', ')]);
  if (kind.selectableFields.length) rows.push(['Selectable fields', kind.selectableFields.map((f) => `<code>${esc(f.jsonPath)}</code>`).join(', ')]);
  if (kind.storageVersion) rows.push(['Storage', 'this version is stored']);
  if (kind.unserved) rows.push(['Served', 'no (unserved version)']);
  if (kind.deprecated) rows.push(['Deprecated', esc(kind.deprecated.warning ?? 'yes')]);
  if (kind.virtual) rows.push(['Virtual', 'create-only, never stored']);
  return `<table class="facts">${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>`;
}

function printerColumns(kind: Kind): string {
  if (kind.printColumns.length === 0) return '';
  const rows = kind.printColumns
    .map((c) => `<tr><td>${esc(c.name)}</td><td>${esc(c.type)}</td><td><code>${esc(c.jsonPath)}</code></td><td>${c.priority > 0 ? '-o wide' : 'always'}</td><td>${esc(c.description ?? '')}</td></tr>`)
    .join('');
  return `<h4>Printer columns</h4><table class="columns"><thead><tr><th>Name</th><th>Type</th><th>JSONPath</th><th>Shown</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function layout(title: string, nav: string, main: string, root = ''): string {
  return layoutParts(title, nav, main, root).join('');
}

/**
 * A page as its parts: the navigation and the main part are their own parts, so a --watch session
 * (which keeps each version's main part) compares and writes a page without joining it first, and
 * an unchanged page compares equal part by part (write/writer.ts).
 */
function layoutParts(title: string, nav: string, main: string, root = ''): string[] {
  return [
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${root}style.css">
</head>
<body>
<header><a class="home" href="${root}index.html">API reference</a><input id="search" type="search" placeholder="Search kinds and fields…" autocomplete="off" aria-label="Search kinds and fields"><ol id="results" hidden></ol></header>
<div class="wrap"><nav>`,
    nav,
    `</nav><main>
`,
    main,
    `
</main></div>
<script src="${root}search.js"></script>
</body>
</html>
`,
  ];
}

/** The navigation of every page: each version's entry is printed once, then joined per page with the current one marked. */
type Nav = (current?: ApiVersion) => string;

function navFor(versions: ApiVersion[]): Nav {
  const groups = new Map<string, ApiVersion[]>();
  for (const v of versions) groups.set(v.group, [...(groups.get(v.group) ?? []), v]);
  const entries = new Map(versions.map((v) => [v, `><a href="${pageName(v)}">${esc(v.name)}</a><ul>${v.kinds.map((k) => `<li><a href="${pageName(v)}#${esc(k.name)}">${esc(k.name)}</a></li>`).join('')}</ul></li>`]));
  return (current) =>
    [...groups].map(([group, vs]) => `<h3>${esc(group || 'core')}</h3><ul>${vs.map((v) => `<li${v === current ? ' class="current"' : ''}${entries.get(v)!}`).join('')}</ul>`).join('');
}

/** Entries for `<Kind>.<path>` through named types, each linking to the field's row in its type. */
function searchPaths(
  prefix: string,
  props: readonly Property[],
  anchorPrefix: string,
  types: Map<string, NamedType>,
  gv: string,
  page: string,
  search: SearchEntry[],
  seen: Set<string>,
): void {
  for (const p of props) {
    const path = `${prefix}.${p.name}`;
    const anchor = `${anchorPrefix}.${p.name}`;
    if (!anchor.startsWith(prefix.split('.')[0]! + '.')) search.push({ t: path, d: `${gv} ${typeText(p.schema)} ${(p.schema.description ?? '').slice(0, 120)}`, h: `${page}#${anchor}` });
    let inner: Schema = p.schema;
    while (inner.type === 'array' || inner.type === 'map') inner = inner.type === 'array' ? inner.items : inner.values;
    if (inner.type === 'object') searchPaths(path, inner.properties, anchor, types, gv, page, search, seen);
    if (inner.type === 'ref' && !seen.has(inner.name)) {
      const t = types.get(inner.name);
      if (t?.schema.type === 'object') searchPaths(path, t.schema.properties, `type-${inner.name}`, types, gv, page, search, new Set([...seen, inner.name]));
    }
  }
}

/**
 * A version page's main part and search entries, kept while the version object lives: besides
 * the version, they depend only on the other versions of its group (versionsSection), so they are
 * kept with that list. The model's objects are not changed after checking, and `kgen generate
 * --watch` reuses the version objects of the groups it did not parse again, so a regeneration
 * renders only the edited groups' pages; the navigation, which lists every version, is printed
 * for every page on every run.
 */
/** A version's page as kept: its main part and its search entries as JSON (the array's inside: `{…},{…}`, or ''). */
const renderedPages = new WeakMap<ApiVersion, { siblings: ApiVersion[]; main: string; search: string }>();

function versionPage(version: ApiVersion, versions: ApiVersion[], search: string[], nav: Nav): string[] {
  const siblings = versions.filter((v) => v.group === version.group);
  let kept = renderedPages.get(version);
  if (!kept || kept.siblings.length !== siblings.length || kept.siblings.some((v, i) => v !== siblings[i])) {
    const own: SearchEntry[] = [];
    kept = { siblings, main: versionMain(version, siblings, own), search: JSON.stringify(own).slice(1, -1) };
    renderedPages.set(version, kept);
  }
  if (kept.search) search.push(kept.search);
  return layoutParts(`${apiVersionOf(version)} API reference`, nav(version), kept.main);
}

/** A version page's main part; its search entries are pushed to `search`. `versions`: those of its group. */
function versionMain(version: ApiVersion, versions: ApiVersion[], search: SearchEntry[]): string {
  const page = pageName(version);
  const gv = apiVersionOf(version);
  const types = new Map(version.types.map((t) => [t.name, t]));
  const kinds = version.kinds
    .map((kind) => {
      search.push({ t: kind.name, d: `${gv} kind ${kind.shortNames.join(' ')} ${(kind.description ?? '').slice(0, 160)}`, h: `${page}#${kind.name}` });
      return `<section class="kind" id="${esc(kind.name)}">
<h2><a class="anchor" href="#${esc(kind.name)}">${esc(kind.name)}</a> <span class="gv">${esc(gv)}</span>${kind.deprecated ? ' <span class="badge deprecated">deprecated</span>' : ''}</h2>
${kind.description ? `<p class="description">${esc(kind.description)}</p>` : ''}
${facts(kind)}
${printerColumns(kind)}
<h4>Example</h4>
<pre class="yaml"><code>${esc(yamlExample(version, kind, types))}</code></pre>
<h4>Fields</h4>
${fieldTable(kind.name, fieldRows(kind.schema.properties), search, page, kind.name, gv)}
${versionsSection(kind, version, versions)}
</section>`;
    })
    .join('\n');
  // Search by a kind's full field paths (Widget.spec.replicas), linking where the field is documented.
  for (const kind of version.kinds) searchPaths(kind.name, kind.schema.properties, kind.name, types, gv, page, search, new Set());
  const named = version.types
    .map((t) => {
      search.push({ t: t.name, d: `${gv} type ${(t.description ?? '').slice(0, 160)}`, h: `${page}#type-${t.name}` });
      const body =
        t.schema.type === 'object'
          ? fieldTable(`type-${t.name}`, fieldRows(t.schema.properties), search, page, t.name, gv)
          : `<p>${typeHTML(t.schema)}</p>${constraints(t.schema).length ? `<ul class="constraints">${constraints(t.schema).join('')}</ul>` : ''}`;
      return `<section class="type" id="type-${esc(t.name)}"><h3><a class="anchor" href="#type-${esc(t.name)}">${esc(t.name)}</a></h3>${t.description ? `<p class="description">${esc(t.description)}</p>` : ''}${body}</section>`;
    })
    .join('\n');
  const main = `<h1>${esc(gv)}</h1>
<p class="muted">Kinds: ${version.kinds.map((k) => `<a href="#${esc(k.name)}">${esc(k.name)}</a>`).join(', ')}</p>
${kinds}
${named ? `<h2 id="types">Types</h2>\n${named}` : ''}`;
  return main;
}

function indexPage(versions: ApiVersion[], title: string, nav: Nav): string {
  const groups = new Map<string, ApiVersion[]>();
  for (const v of versions) groups.set(v.group, [...(groups.get(v.group) ?? []), v]);
  const body = [...groups]
    .map(
      ([group, vs]) =>
        `<section><h2>${esc(group || 'core')}</h2><table class="index"><thead><tr><th>Version</th><th>Kinds</th></tr></thead><tbody>${vs
          .map((v) => `<tr><td><a href="${pageName(v)}">${esc(v.name)}</a></td><td>${v.kinds.map((k) => `<a href="${pageName(v)}#${esc(k.name)}">${esc(k.name)}</a>`).join(', ')}</td></tr>`)
          .join('')}</tbody></table></section>`,
    )
    .join('\n');
  return layout(title, nav(), `<h1>${esc(title)}</h1>\n<p class="muted">Generated by kgen from the API types. Search with the box above, or pick a group/version.</p>\n${body}`);
}

const SEARCH_SCRIPT = `
(function () {
  var input = document.getElementById('search');
  var results = document.getElementById('results');
  if (!input || !results) return;
  function render() {
    var q = input.value.trim().toLowerCase();
    results.innerHTML = '';
    if (!q) { results.hidden = true; return; }
    var words = q.split(/\\s+/);
    var hits = INDEX.filter(function (e) {
      var text = (e.t + ' ' + e.d).toLowerCase();
      return words.every(function (w) { return text.indexOf(w) >= 0; });
    });
    hits.sort(function (a, b) {
      var an = a.t.toLowerCase(), bn = b.t.toLowerCase();
      var ae = an.endsWith('.' + q) || an === q ? 0 : 1, be = bn.endsWith('.' + q) || bn === q ? 0 : 1;
      return ae - be || an.length - bn.length;
    });
    hits.slice(0, 30).forEach(function (e) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = ROOT + e.h;
      a.textContent = e.t;
      var small = document.createElement('small');
      small.textContent = ' ' + e.d.split(' ')[0];
      li.appendChild(a);
      li.appendChild(small);
      results.appendChild(li);
    });
    if (hits.length === 0) { var li = document.createElement('li'); li.textContent = 'No match'; results.appendChild(li); }
    results.hidden = false;
  }
  var ROOT = (document.currentScript && document.currentScript.getAttribute('src') || 'search.js').replace(/search\\.js$/, '');
  input.addEventListener('input', render);
  input.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') { var first = results.querySelector('a'); if (first) { location.href = first.href; } }
    if (ev.key === 'Escape') { input.value = ''; render(); }
  });
})();
`;

/**
 * A nested field's indentation, as classes (d1 … d8) in the stylesheet rather than style
 * attributes: /docs/'s Content-Security-Policy (style-src 'self') refuses inline styles, so an
 * attribute would indent the file opened alone but not the page kgen serve sends. Deeper rows
 * keep the deepest indentation; their path, under the name, says where they are.
 */
const MAX_INDENT = 8;
const INDENTS = Array.from({ length: MAX_INDENT }, (_, i) => `\ntable.fields td.name.d${i + 1} { padding-left: ${(0.5 + (i + 1) * 1.2).toFixed(1)}em; }`).join('');

const STYLE = `:root { --fg: #1d2330; --muted: #667085; --line: #e3e7ee; --accent: #2457c5; --bg: #fff; --code: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
header { position: sticky; top: 0; z-index: 2; display: flex; gap: 1em; align-items: center; padding: .6em 1.2em; background: #1d2330; color: #fff; }
header .home { color: #fff; font-weight: 600; text-decoration: none; }
#search { flex: 0 1 28em; padding: .35em .6em; border-radius: 4px; border: 0; font: inherit; }
#results { position: absolute; top: 2.6em; left: 12em; width: 36em; max-height: 70vh; overflow: auto; margin: 0; padding: .4em 0; list-style: none; background: #fff; color: var(--fg); border: 1px solid var(--line); box-shadow: 0 6px 20px rgba(0,0,0,.15); }
#results li { padding: .2em .9em; } #results small { color: var(--muted); }
.wrap { display: flex; }
nav { flex: 0 0 15em; padding: 1em; border-right: 1px solid var(--line); font-size: 14px; position: sticky; top: 2.8em; align-self: flex-start; max-height: calc(100vh - 3em); overflow: auto; }
nav h3 { font-size: 13px; margin: 1em 0 .3em; color: var(--muted); word-break: break-all; } nav ul { list-style: none; margin: 0; padding-left: .6em; } nav li.current > a { font-weight: 600; }
main { flex: 1; min-width: 0; padding: 1em 2em 4em; }
a { color: var(--accent); } a.anchor { color: inherit; text-decoration: none; }
h1 { margin-top: .2em; } h2 { border-bottom: 1px solid var(--line); padding-bottom: .2em; margin-top: 2em; } h2 .gv { font-size: 60%; color: var(--muted); font-weight: 400; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; } code { background: var(--code); padding: 0 .25em; border-radius: 3px; }
pre.yaml { background: var(--code); padding: .8em 1em; border-radius: 4px; overflow: auto; } pre code { padding: 0; background: none; }
table { border-collapse: collapse; width: 100%; margin: .5em 0 1em; } th, td { text-align: left; vertical-align: top; padding: .35em .6em; border-bottom: 1px solid var(--line); }
table.facts { width: auto; } table.facts th { color: var(--muted); font-weight: 500; padding-right: 1.5em; }
table.fields td.name { white-space: nowrap; font-weight: 600; padding-left: 0.5em; }${INDENTS} table.fields td.type { white-space: nowrap; font-family: ui-monospace, Menlo, monospace; font-size: 13px; }
td .path { font-weight: 400; font-size: 12px; color: var(--muted); font-family: ui-monospace, Menlo, monospace; }
tr.field:target, section:target > h2, section:target > h3 { background: #fff7d6; } [id] { scroll-margin-top: 3.5em; }
ul.constraints { margin: .2em 0 0; padding-left: 1.1em; font-size: 13px; } .k { color: var(--muted); }
.badge { display: inline-block; margin-left: .4em; padding: 0 .4em; border-radius: 3px; font-size: 11px; font-weight: 600; vertical-align: middle; }
.badge.required { background: #e8efff; color: #2457c5; } .badge.deprecated { background: #fde7e7; color: #b42318; } .badge.immutable { background: #efe8ff; color: #5b2bb5; }
tr.is-deprecated td.name a { text-decoration: line-through; }
.muted { color: var(--muted); }
details.versions summary { cursor: pointer; font-weight: 600; margin-top: 1em; } table.compare tr.changed td { background: #fff4e5; } table.compare td.path { font-family: ui-monospace, Menlo, monospace; font-size: 13px; }
`;

/** The reference of the versions `include` selects (all by default), under `docs/`. */
export function emitDocs(model: ApiModel, options: DocsOptions = {}): EmittedFile[] {
  const include = options.include ?? (() => true);
  const versions = model.groups.flatMap((g) => g.versions).filter(include);
  // Each version's search entries as kept JSON texts: the index is JSON.stringify of all entries
  // (an array's JSON is its items' JSON joined with ','), written as parts without printing it again.
  const search: string[] = [];
  const files: EmittedFile[] = [];
  const nav = navFor(versions);
  for (const v of versions) files.push(partsFile(`docs/${pageName(v)}`, versionPage(v, versions, search, nav)));
  files.push({ path: 'docs/index.html', content: indexPage(versions, options.title ?? 'API reference', nav) });
  const index = ['var INDEX = ['];
  search.forEach((text, i) => (i === 0 ? index.push(text) : index.push(',', text)));
  index.push(`];\n${SEARCH_SCRIPT}`);
  files.push(partsFile('docs/search.js', index));
  files.push({ path: 'docs/style.css', content: STYLE });
  return files;
}
