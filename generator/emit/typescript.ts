/**
 * Emits the TypeScript outputs: models, REST storage definitions, route installers, the index the
 * server loads, and typed clients. View models are built here; templates only print them.
 */
import type { CustomSubresourceDefinition, PrinterColumn, ResourceDefinition, ScaleSubresource } from '../../runtime/api/resource.js';
import type { CheckedModel } from '../check/checked.js';
import type { ApiGroup, ApiVersion, Kind, Schema } from '../model.js';
import { assertNever } from '../model.js';
import { apiVersionOf, groupFolder, groupToCamel, groupToPascal } from '../names.js';
import { deprecationWarning, multiVersionKinds } from '../versions.js';
import { versionDigest, type EmittedFile, type KeptOutput } from './emitted.js';
import { conversionExportName, conversionModulePath, openapiPath, schemasPath } from './layout.js';
import { resourceDefinition } from '../definitions.js';
import { protobufNumbers } from './protobuf-numbers.js';
import { render, stringLiteral } from './templates.js';
import { fileURLToPath } from 'node:url';
import { entryKey, proposeEntry, readEntry, type DerivedCache } from '../cache.js';
import { codeKey } from './code-key.js';

const KGEN_SCALARS: Partial<Record<Schema['type'], string>> = {
  intOrString: 'IntOrString',
  quantity: 'Quantity',
  time: 'Time',
  duration: 'Duration',
};

/** Prints a schema as a TypeScript type, recording the 'kgen' types it uses. */
function tsType(s: Schema, imports: Set<string>): string {
  const base = ((): string => {
    switch (s.type) {
      case 'string':
        return s.enum ? s.enum.map(stringLiteral).join(' | ') : 'string';
      case 'integer':
        if (s.enum) return s.enum.map((e) => String(e)).join(' | ');
        if (s.format === 'int32' || s.format === 'int64') {
          imports.add(s.format);
          return s.format;
        }
        return 'number';
      case 'number':
        return s.enum ? s.enum.map((e) => String(e)).join(' | ') : 'number';
      case 'boolean':
        return s.enum ? s.enum.map((e) => String(e)).join(' | ') : 'boolean';
      case 'array': {
        const items = tsType(s.items, imports);
        return /[|&]/.test(items) ? `(${items})[]` : `${items}[]`;
      }
      case 'map':
        return `Record<string, ${tsType(s.values, imports)}>`;
      case 'object':
        // A discriminated union stays one in the model, so code narrows on its tag.
        if (s.union) return s.union.members.map((m) => tsType(m.schema, imports)).join(' | ');
        return `{ ${s.properties.map((p) => `${propName(p.name)}${p.optional ? '?' : ''}: ${tsType(p.schema, imports)}`).join('; ')} }`;
      case 'ref':
        return s.name;
      case 'wellKnown':
        imports.add(s.name);
        return s.name;
      case 'intOrString':
      case 'quantity':
      case 'time':
      case 'duration':
        imports.add(KGEN_SCALARS[s.type]!);
        return KGEN_SCALARS[s.type]!;
      case 'unknown':
        return 'unknown';
      default:
        return assertNever(s, 'schema');
    }
  })();
  return s.nullable ? `${base} | null` : base;
}

function propName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : stringLiteral(name);
}

/**
 * A JSDoc block at the given indent, or undefined. Printed whole into the models template: a
 * comment's lines are text, not the file's shape, and a template loop per line made emitting the
 * models ~30 % slower (thousands of fields in a cold run).
 */
function jsDoc(text: string | undefined, indent: string, deprecated?: boolean): string | undefined {
  const lines = (text ?? '').split('\n').map((l) => l.replace(/\*\//g, '*\\/'));
  if (deprecated) lines.push('@deprecated');
  const body = lines.filter((l, i) => l.trim() !== '' || (i > 0 && i < lines.length - 1));
  if (body.length === 0) return undefined;
  if (body.length === 1) return `${indent}/** ${body[0]} */`;
  return [`${indent}/**`, ...body.map((l) => `${indent} *${l ? ` ${l}` : ''}`), `${indent} */`].join('\n');
}

function modelFile(version: ApiVersion, sourceOf: (v: ApiVersion) => string): EmittedFile {
  const imports = new Set<string>();
  const types: object[] = [];
  for (const kind of version.kinds) {
    imports.add('ObjectMeta');
    imports.add('ListMeta');
    types.push({
      name: kind.name,
      doc: jsDoc(kind.description, ''),
      fields: [
        { name: 'apiVersion', optional: true, type: `'${apiVersionOf(kind.group, kind.version)}'`, doc: jsDoc('APIVersion of this object.', '  ') },
        { name: 'kind', optional: true, type: `'${kind.name}'`, doc: jsDoc('Kind of this object.', '  ') },
        { name: 'metadata', optional: false, type: 'ObjectMeta', doc: jsDoc("Standard object's metadata.", '  ') },
        ...kind.schema.properties.map((p) => ({ name: propName(p.name), optional: p.optional, type: tsType(p.schema, imports), doc: jsDoc(p.schema.description, '  ', p.schema.deprecated) })),
      ],
    });
    types.push({
      name: `${kind.name}List`,
      doc: jsDoc(`${kind.name}List is a list of ${kind.name}.`, ''),
      fields: [
        { name: 'apiVersion', optional: true, type: 'string' },
        { name: 'kind', optional: true, type: `'${kind.name}List'` },
        { name: 'metadata', optional: false, type: 'ListMeta' },
        { name: 'items', optional: false, type: `${kind.name}[]` },
      ],
    });
  }
  for (const type of version.types) {
    const doc = jsDoc(type.description, '');
    if (type.schema.type === 'object' && !type.schema.union) {
      types.push({
        name: type.name,
        doc,
        fields: type.schema.properties.map((p) => ({ name: propName(p.name), optional: p.optional, type: tsType(p.schema, imports), doc: jsDoc(p.schema.description, '  ', p.schema.deprecated) })),
      });
    } else {
      types.push({ name: type.name, doc, alias: tsType(type.schema, imports) });
    }
  }
  return {
    path: `models/${groupFolder(version.group)}/${version.name}.ts`,
    content: render('models.ts.hbs', { source: sourceOf(version), imports: [...imports].sort(), types }),
  };
}

const RESERVED = new Set(['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'await']);
const exportName = (kind: Kind) => (RESERVED.has(kind.plural) ? `${kind.plural}Resource` : kind.plural);

/**
 * The view of templates/storage.ts.hbs: the kind's ResourceDefinition with every optional member
 * present (null when unset), as the template prints each member in the definition's own order.
 */
interface StorageView {
  source: string;
  kind: string;
  qualified: string;
  exportName: string;
  modelImport: string;
  conversion: { exportName: string; importPath: string } | null;
  /** The custom subresources' names, so `registration.subresource(name, …)` is checked. */
  subresourceNames: string[];
  def: Omit<ResourceDefinition, 'subresources' | 'printerColumns' | 'virtual' | 'deprecationWarning' | 'protobuf'> & {
    /** Schema names and field names as printed keys (quoted when not identifiers), values as printed. */
    protobuf: { key: string; fields: { key: string; value: string }[] }[] | null;
    subresources: { status: boolean; custom: CustomSubresourceDefinition[] | null; scale: (Required<Omit<ScaleSubresource, 'labelSelectorPath'>> & { labelSelectorPath: string | null }) | null };
    printerColumns: (Omit<PrinterColumn, 'description' | 'format'> & { description: string | null; format: string | null })[];
    virtual: boolean;
    deprecationWarning: string | null;
  };
  hasDeprecationWarning: boolean;
}

function protobufView(numbers: NonNullable<ResourceDefinition['protobuf']>) {
  return Object.entries(numbers).map(([schema, fields]) => ({
    key: propName(schema),
    fields: Object.entries(fields).map(([field, entry]) => ({ key: propName(field), value: protobufEntryText(entry) })),
  }));
}

/** `1`, `[3, 1]`, or with wire words `{ number: 1, pointer: true }`. */
function protobufEntryText(entry: NonNullable<ResourceDefinition['protobuf']>[string][string]): string {
  const number = (n: number | readonly [number, number]) => (typeof n === 'number' ? String(n) : `[${n.join(', ')}]`);
  if (typeof entry === 'number' || Array.isArray(entry)) return number(entry as number | readonly [number, number]);
  const e = entry as { number: number | readonly [number, number]; pointer?: true; microTime?: true };
  return `{ number: ${number(e.number)}${e.pointer ? ', pointer: true' : ''}${e.microTime ? ', microTime: true' : ''} }`;
}

function storageFile(kind: Kind, version: ApiVersion, source: string, group: ApiGroup, multiVersion: boolean): EmittedFile {
  const folder = groupFolder(kind.group);
  const definition: ResourceDefinition = { ...resourceDefinition(kind) };
  const protobuf = protobufNumbers(kind, version);
  if (protobuf) definition.protobuf = protobuf;
  const warning = deprecationWarning(group, kind);
  // Every version of a multi-version kind is served through the kind's conversion.
  const conversion = multiVersion
    ? { exportName: conversionExportName(kind.plural), importPath: `../../../${conversionModulePath(kind.group, kind.plural).replace(/\.ts$/, '.js')}` }
    : null;
  const { subresources, printerColumns, virtual, protobuf: numbers, ...plain } = definition;
  const scale = subresources.scale;
  const view: StorageView = {
    source,
    kind: kind.name,
    qualified: kind.group ? `${kind.plural}.${kind.group}` : kind.plural,
    exportName: exportName(kind),
    modelImport: `../../../models/${folder}/${kind.version}.js`,
    conversion,
    subresourceNames: subresources.custom?.map((c) => c.name) ?? [],
    def: {
      ...plain,
      subresources: {
        status: subresources.status,
        custom: subresources.custom ?? null,
        scale: scale ? { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, labelSelectorPath: scale.labelSelectorPath ?? null } : null,
      },
      printerColumns: printerColumns.map((c) => ({ ...c, description: c.description ?? null, format: c.format ?? null })),
      virtual: !!virtual,
      protobuf: numbers ? protobufView(numbers) : null,
      deprecationWarning: warning ?? null,
    },
    hasDeprecationWarning: warning !== undefined,
  };
  return { path: `storage/${folder}/${kind.version}/${kind.plural}.ts`, content: render('storage.ts.hbs', view) };
}

function routesFile(version: ApiVersion, source: string): EmittedFile {
  const folder = groupFolder(version.group);
  return {
    path: `routes/${folder}/${version.name}.ts`,
    content: render('routes.ts.hbs', {
      source,
      group: version.group,
      version: version.name,
      groupVersion: `${version.group || 'core'}/${version.name}`,
      openapiPath: openapiPath(version.group, version.name),
      schemasPath: schemasPath(version.group, version.name),
      resources: version.kinds.map((k) => ({ exportName: exportName(k), importPath: `../../storage/${folder}/${version.name}/${k.plural}.js` })),
    }),
  };
}

/** A group may start with a digit (`3scale.example.com`, a valid DNS subdomain), an identifier may not. */
const identifier = (name: string) => (/^[0-9]/.test(name) ? `_${name}` : name);
const clientClass = (v: ApiVersion) => identifier(`${groupToPascal(v.group)}${v.name[0]!.toUpperCase()}${v.name.slice(1)}Client`);
const clientField = (v: ApiVersion) => identifier(`${groupToCamel(v.group)}${v.name[0]!.toUpperCase()}${v.name.slice(1)}`);

/** The view of one resource's method in templates/client.ts.hbs. */
interface ClientResourceView {
  method: string;
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /**
   * The custom subresources' methods (`logs(name, opts)` streams, `console(name)` connects), by
   * method name (camel case) and subresource name; null when the kind has none (a plain ResourceClient).
   */
  subresources: { getters: { method: string; key: string; name: string }[]; connectors: { method: string; key: string; name: string }[] } | null;
}

function clientFile(version: ApiVersion, source: string): EmittedFile {
  const folder = groupFolder(version.group);
  return {
    path: `client/${folder}/${version.name}.ts`,
    content: render('client.ts.hbs', {
      source,
      className: clientClass(version),
      groupVersion: apiVersionOf(version.group, version.name),
      modelImport: `../../models/${folder}/${version.name}.js`,
      kinds: version.kinds.map((k) => k.name),
      hasSubresources: version.kinds.some((k) => k.subresources.custom?.length),
      resources: version.kinds.map(clientResource),
    }),
  };
}

function clientResource(k: Kind): ClientResourceView {
  const custom = k.subresources.custom ?? [];
  const method = (name: string) => name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  // `key`: the method as an object key (a name such as `a-` leaves a `-` in it: quoted).
  const entries = (verb: 'get' | 'connect') => custom.filter((c) => c.verbs.includes(verb)).map((c) => ({ method: method(c.name), key: propName(method(c.name)), name: c.name }));
  return {
    method: exportName(k),
    group: k.group,
    version: k.version,
    kind: k.name,
    plural: k.plural,
    namespaced: k.scope === 'Namespaced',
    subresources: custom.length ? { getters: entries('get'), connectors: entries('connect') } : null,
  };
}

/**
 * A version's rendered files, kept while the version object lives, with a key of everything else
 * they depend on: the model's objects are not changed after checking, and `kgen generate --watch`
 * reuses the version objects of the groups it did not parse again, so a regeneration renders only
 * the changed groups' files (a cold run renders each version once, as before).
 */
const renderedModels = new WeakMap<ApiVersion, { key: string; file: EmittedFile }>();
const renderedServed = new WeakMap<ApiVersion, { key: string; files: EmittedFile[] }>();

/** The in-process key of a version's model file: all it takes besides the version is its banner. */
const modelKey = (version: ApiVersion, sourceOf: (v: ApiVersion) => string) => sourceOf(version);

/** The in-process key of a served version's storage, routes and client files. */
function servedKey(version: ApiVersion, group: ApiGroup, multi: ReturnType<typeof multiVersionKinds>, source: string): string {
  // What a version's storage modules take from the rest of its group: multi-version kinds, deprecation warnings.
  return [source, ...version.kinds.map((k) => `${k.name}\0${multi.has(k.name)}\0${deprecationWarning(group, k) ?? ''}`)].join('\n');
}

/**
 * Across runs, the files of kgen's built-in versions (the same in every project, and ~50 ms of a
 * cold run's rendering) are kept in kgen's cache (../cache.ts) as one entry, named by a hash of:
 * - the entry's FORMAT;
 * - the code that renders them (./code-key.ts: this module's import closure, every template, the
 *   versions of the packages it imports). No TypeScript: this module does not import it;
 * - per built-in version, in model order: its in-process key (banner; for a served version, what
 *   it takes from its group), and a hash of the JSON text of the checked version object itself
 *   (versionDigest), as a model version and as a served one (plain data, so that covers
 *   everything the renderers read of it, whatever the checker or a project's other groups did to it).
 * emitTypeScript takes no options: nothing else reaches these files (test/generator/
 * builtin-emit-cache.test.ts fails when its parameters change).
 * A hit puts the entry's files into the in-process maps above under their in-process keys, so the
 * loop below finds them; a miss renders as before and proposes the entry for write/ to store.
 * Either way the files are the same text.
 */
const FORMAT = 1;
const ENTRY_PREFIX = 'builtin-emit-ts-';
const CODE = fileURLToPath(import.meta.url);

interface Entry {
  models: Record<string, EmittedFile>;
  served: Record<string, EmittedFile[]>;
}

const versionId = (v: ApiVersion) => `${v.group}/${v.name}`;

export function emitTypeScript(checked: CheckedModel, sourceOf: (v: ApiVersion) => string, kept?: KeptOutput): EmittedFile[] {
  const { model, served } = checked;
  const files: EmittedFile[] = [];
  const multiOf = new Map(served.groups.map((g) => [g.name, multiVersionKinds(model.groups.find((m) => m.name === g.name)!)]));
  const across = kept?.cache?.dir ? keptAcrossRuns(checked, sourceOf, kept, multiOf) : undefined;
  // Models of every version (conversions use them); the rest only of what is served.
  for (const version of model.groups.flatMap((g) => g.versions)) {
    const key = modelKey(version, sourceOf);
    let kept = renderedModels.get(version);
    if (kept?.key !== key) renderedModels.set(version, (kept = { key, file: modelFile(version, sourceOf) }));
    files.push(kept.file);
  }
  const versions = served.groups.flatMap((g) => g.versions);
  for (const group of served.groups) {
    const multi = multiOf.get(group.name)!;
    for (const version of group.versions) {
      const source = sourceOf(version);
      const key = servedKey(version, group, multi, source);
      let kept = renderedServed.get(version);
      if (kept?.key !== key) {
        const own: EmittedFile[] = [];
        for (const kind of version.kinds) own.push(storageFile(kind, version, source, group, multi.has(kind.name)));
        own.push(routesFile(version, source));
        own.push(clientFile(version, source));
        renderedServed.set(version, (kept = { key, files: own }));
      }
      files.push(...kept.files);
    }
  }
  across?.();
  const gvs = versions.map((v) => ({
    alias: clientField(v),
    importPath: `./routes/${groupFolder(v.group)}/${v.name}.js`,
  }));
  files.push({ path: 'index.ts', content: render('index.ts.hbs', { source: 'the apis folder', groupVersions: gvs }) });
  files.push({
    path: 'client/index.ts',
    content: render('clientset.ts.hbs', {
      source: 'the apis folder',
      clients: versions.map((v) => ({ className: clientClass(v), field: clientField(v), importPath: `./${groupFolder(v.group)}/${v.name}.js` })),
    }),
  });
  return files;
}

/**
 * Looks up the built-in versions' entry: on a hit, fills the in-process maps from it; returns what
 * to run after rendering (on a miss, proposing the entry from the maps), or undefined.
 */
function keptAcrossRuns(checked: CheckedModel, sourceOf: (v: ApiVersion) => string, kept: KeptOutput, multiOf: Map<string, ReturnType<typeof multiVersionKinds>>): (() => void) | undefined {
  const models = checked.model.groups.flatMap((g) => g.versions).filter(kept.builtin);
  const served = checked.served.groups.flatMap((g) => g.versions.filter(kept.builtin).map((v) => ({ v, key: servedKey(v, g, multiOf.get(g.name)!, sourceOf(v)) })));
  if (models.length === 0) return undefined;
  // Already rendered in this process (kgen generate --watch after its first run): nothing to look up.
  if (models.every((v) => renderedModels.get(v)?.key === modelKey(v, sourceOf)) && served.every(({ v, key }) => renderedServed.get(v)?.key === key)) return undefined;
  const parts = [String(FORMAT), codeKey(CODE)];
  // A served version is most often the model's own object (printed and hashed once).
  for (const v of models) parts.push('model', versionId(v), modelKey(v, sourceOf), versionDigest(v));
  for (const { v, key } of served) parts.push('served', versionId(v), key, versionDigest(v));
  const name = `${ENTRY_PREFIX}${entryKey(...parts)}.json`;
  const text = readEntry(kept.cache, name);
  if (text !== undefined) {
    try {
      const entry = JSON.parse(text) as Entry;
      const modelFiles = models.map((v) => entry.models[versionId(v)]);
      const servedFiles = served.map(({ v }) => entry.served[versionId(v)]);
      const isFile = (f: unknown): f is EmittedFile => typeof f === 'object' && f !== null && typeof (f as EmittedFile).path === 'string' && typeof (f as EmittedFile).content === 'string';
      if (modelFiles.every(isFile) && servedFiles.every((fs) => Array.isArray(fs) && fs.every(isFile))) {
        models.forEach((v, i) => renderedModels.set(v, { key: modelKey(v, sourceOf), file: modelFiles[i]! }));
        served.forEach(({ v, key }, i) => renderedServed.set(v, { key, files: servedFiles[i]! }));
        return undefined;
      }
    } catch {
      // A damaged entry is a miss.
    }
  }
  return () => {
    const entry: Entry = { models: {}, served: {} };
    for (const v of models) entry.models[versionId(v)] = renderedModels.get(v)!.file;
    for (const { v } of served) entry.served[versionId(v)] = renderedServed.get(v)!.files;
    proposeEntry(kept.cache, name, JSON.stringify(entry), ENTRY_PREFIX);
  };
}
