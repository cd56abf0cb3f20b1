/**
 * Emits the OpenAPI documents kube-apiserver serves: one OpenAPI 3.0 document per group/version
 * (`openapi/v3/apis/<group>/<version>.json`, `openapi/v3/api/v1.json`) and one Swagger 2.0
 * document of everything (`openapi/v2/swagger.json`).
 */
import { fileURLToPath } from 'node:url';
import type { OpenAPIV2, OpenAPIV3 } from 'openapi-types';
import { entryKey, proposeEntry, readEntryBytes } from '../cache.js';
import type { ApiVersion } from '../model.js';
import { groupFolder } from '../names.js';
import type { CheckedModel } from '../check/checked.js';
import { openapiPath, schemasPath } from './layout.js';
import { jsonFile, partsFile, versionDigest, type EmitOptions, type EmittedFile, type KeptOutput } from './emitted.js';
import { codeKey } from './code-key.js';
import { META_SCHEMAS, withMetaSchemas } from '../../runtime/endpoints/openapi/meta-schemas.js';
import { operationSchemas, resourceOperations, type Operation, type QueryParam } from '../../runtime/endpoints/openapi/operations.js';
import { definitionV2, toV2Schema, v2Paths, v2QueryParameter, type ParameterPrinter } from '../../runtime/endpoints/openapi/v2.js';
import { PARAMETER_REF, ParameterKeys, shareParameters } from '../../runtime/endpoints/openapi/v2-parameters.js';
import { v3Paths as printV3Paths, v3QueryParameter } from '../../runtime/endpoints/openapi/v3.js';
import { resourceDefinition } from '../definitions.js';
import { contextFor, versionSchemas, type SchemaOrRef } from './openapi-schemas.js';

const INFO = { title: 'Kubernetes', version: 'unversioned' };


interface VersionSpec {
  version: ApiVersion;
  operations: Operation[];
  schemas: Record<string, SchemaOrRef>;
}

function buildVersion(version: ApiVersion, options: EmitOptions): VersionSpec {
  const ctx = contextFor(version, options.maxDescriptionLength);
  const operations = version.kinds.flatMap((k) => resourceOperations(resourceDefinition(k)));
  const own = versionSchemas(ctx, version);
  return { version, operations, schemas: withReferenced(own, operations) };
}

/** Adds the meta schemas reachable from the version's schemas and operations, sorted by name. */
function withReferenced(own: Record<string, SchemaOrRef>, operations: Operation[]): Record<string, SchemaOrRef> {
  const all = withMetaSchemas(own, operationSchemas(operations));
  return Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]!]));
}

/**
 * Query parameters, the bulk of every path: the few shared lists (runtime/endpoints/openapi/operations.ts) are
 * printed once per style and indentation. An operation holds a placeholder element for a shared
 * list, which expandQuery replaces, in printed text, with the list's printed elements. The
 * placeholder prints as "\u0000kgen-query:<id>", which no string without a NUL character prints as.
 */
type Style = 'v2' | 'v3';
const queryIds = { v2: new WeakMap<readonly QueryParam[], number>(), v3: new WeakMap<readonly QueryParam[], number>() };
const queryLists: { style: Style; query: readonly QueryParam[] }[] = [];
const printedQuery = new Map<string, string>();

/**
 * swagger.json declares its parameters once, as kube's /openapi/v2 does (../../runtime/endpoints/openapi/v2-parameters.ts):
 * an operation's or path's parameter prints as `{"$ref": "#/parameters/<key>"}`, and each version
 * records the declarations it refers to. A key depends only on the parameter's content, so keys
 * are remembered for the process (kgen generate --watch).
 */
type Json = Record<string, unknown>;
type Declare = (key: string, p: Json) => void;
const parameterKeys = new ParameterKeys();
const v2QueryEntries = new WeakMap<QueryParam, { param: Json; key: string | undefined }>();

function v2QueryEntry(p: QueryParam): { param: Json; key: string | undefined } {
  let entry = v2QueryEntries.get(p);
  if (entry === undefined) {
    const param = v2QueryParameter(p);
    entry = { param, key: parameterKeys.keyOf(param) };
    v2QueryEntries.set(p, entry);
  }
  return entry;
}

function queryParameter(p: QueryParam, style: Style): Record<string, unknown> {
  if (style === 'v3') return v3QueryParameter(p);
  const { param, key } = v2QueryEntry(p);
  return key === undefined ? param : { $ref: PARAMETER_REF + key };
}

/** Body and path parameters of swagger.json: references to their declarations, which `declare` records. */
function sharedParameter(declare: Declare): ParameterPrinter {
  return (p) => {
    const key = parameterKeys.keyOf(p);
    if (key === undefined) return p;
    declare(key, p);
    return { $ref: PARAMETER_REF + key };
  };
}

function queryParameters(query: readonly QueryParam[], style: Style, declare?: Declare): unknown[] {
  if (declare) {
    for (const p of query) {
      const { param, key } = v2QueryEntry(p);
      if (key !== undefined) declare(key, param);
    }
  }
  // Short lists are built per operation ([pretty]), so not shared: printed in place.
  if (query.length < 3) return query.map((p) => queryParameter(p, style));
  let id = queryIds[style].get(query);
  if (id === undefined) {
    id = queryLists.push({ style, query }) - 1;
    queryIds[style].set(query, id);
  }
  return [`\0kgen-query:${id}`];
}

const PLACEHOLDER = '"\\u0000kgen-query:';

/** `text` with each placeholder element replaced by its list's elements, printed at its indentation. */
function expandQuery(text: string): string {
  const parts = expandQueryParts(text);
  return parts.length === 1 ? parts[0]! : parts.join('');
}

/**
 * expandQuery's text as the parts it is the concatenation of (slices of `text` and the printed
 * lists), for a parts file: a version's OpenAPI 3 paths are not copied once more into one string
 * (~7 MB for the 100-kind set, ~65 MB for 1,000 kinds, each page of it a page fault).
 */
function expandQueryParts(text: string): string[] {
  // indexOf, not a regular expression: a pattern that starts with the indentation is tried at every position.
  let at = text.indexOf(PLACEHOLDER);
  if (at < 0) return [text];
  const out: string[] = [];
  let from = 0;
  while (at >= 0) {
    let start = at;
    while (start > 0 && text.charCodeAt(start - 1) === 32) start--;
    const end = text.indexOf('"', at + PLACEHOLDER.length);
    if (end < 0) break;
    const id = Number(text.slice(at + PLACEHOLDER.length, end));
    // A whole array element on its own line; anything else is some other string's text.
    if (text.charCodeAt(start - 1) === 10 && queryLists[id]) {
      out.push(text.slice(from, start), printedQueryList(id, at - start));
      from = end + 1;
    }
    at = text.indexOf(PLACEHOLDER, end);
  }
  out.push(text.slice(from));
  return out;
}

/** The elements of shared list `id`, the first and each next indented `indent` spaces. */
function printedQueryList(id: number, indent: number): string {
  const key = `${id}:${indent}`;
  let printed = printedQuery.get(key);
  if (printed === undefined) {
    const { style, query } = queryLists[id]!;
    // The list as a member's value at depth d has its elements indented 2 × (d + 1) spaces.
    const depth = indent / 2 - 1;
    const member = memberAt(depth, 'q', query.map((p) => queryParameter(p, style)));
    printed = member.slice(2 * depth + 7, member.length - (2 * depth + 2));
    printedQuery.set(key, printed);
  }
  return printed;
}

/** The sorted paths of a version's OpenAPI 3 document (printed by v3File), shared query lists as placeholders. */
function v3Paths(operations: Operation[]): OpenAPIV3.PathsObject {
  return printV3Paths(operations, (query) => queryParameters(query, 'v3')) as OpenAPIV3.PathsObject;
}

/**
 * The whole Swagger document, built in place and its parameters then shared by kube's algorithm
 * (shareParameters): what swaggerFile prints by parts, and prints this way when two versions
 * share a path or two parameters' keys collide.
 */
function v2Document(specs: VersionSpec[]): OpenAPIV2.Document {
  const paths: Record<string, Record<string, unknown>> = {};
  const definitions: Record<string, unknown> = {};
  for (const spec of specs) {
    for (const [path, item] of Object.entries(v2Paths(spec.operations))) {
      const { parameters, ...operations } = item;
      Object.assign((paths[path] ??= { parameters }), operations);
    }
    for (const [name, schema] of Object.entries(spec.schemas)) definitions[name] = definitionV2(name, schema);
  }
  const shared = shareParameters(Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]!])));
  return {
    swagger: '2.0',
    info: INFO,
    paths: shared.paths as OpenAPIV2.PathsObject,
    definitions: Object.fromEntries(Object.keys(definitions).sort().map((k) => [k, definitions[k]])) as OpenAPIV2.DefinitionsObject,
    ...(Object.keys(shared.parameters).length > 0 ? { parameters: shared.parameters as OpenAPIV2.ParametersDefinitionsObject } : {}),
  };
}

/** One version's documents: its OpenAPI 3 file, and its Swagger paths and definitions as printed members. */
interface VersionOutput {
  /** The version's operations and schemas (built again on use for an output read from kgen's cache). */
  spec: () => VersionSpec;
  v3: EmittedFile;
  /** The v3 document's component schemas alone, compact (layout.ts's schemasPath). */
  schemas: EmittedFile;
  v2Paths: Map<string, string>;
  v2Definitions: Map<string, string>;
  /** The declarations of the shared parameters its paths refer to, by key. */
  v2Parameters: Map<string, string>;
}

/**
 * Per-version output, kept while the version object lives. The model's objects are not changed
 * after checking, and `kgen generate --watch` reuses the version objects of the groups it did not
 * parse again, so only changed versions are built and printed again.
 */
const outputs = new WeakMap<ApiVersion, { options: string; output: VersionOutput }>();

/**
 * Printing by parts. Every document is printed exactly as JSON.stringify(doc, null, 2) prints it,
 * but from parts printed once each: the meta schemas (the same in every document) are printed once
 * per process, and each part is printed at the depth where it appears, by printing it inside
 * single-key wrapper objects and slicing the wrappers off (no re-indenting copy).
 */
const wrapPrefix: string[] = [];
const wrapSuffix: string[] = [];
function wrappers(depth: number): [string, string] {
  if (wrapPrefix[depth] === undefined) {
    let prefix = '{\n';
    let suffix = '\n}';
    for (let j = 1; j < depth; j++) {
      prefix += `${'  '.repeat(j)}"a": {\n`;
      suffix = `\n${'  '.repeat(j)}}` + suffix;
    }
    wrapPrefix[depth] = prefix;
    wrapSuffix[depth] = suffix;
  }
  return [wrapPrefix[depth]!, wrapSuffix[depth]!];
}

/** `"key": value` as a member of an object at `depth` (members indented 2 × depth spaces). */
function memberAt(depth: number, key: string, value: unknown): string {
  let wrapped: unknown = { [key]: value };
  for (let j = 1; j < depth; j++) wrapped = { a: wrapped };
  const [prefix, suffix] = wrappers(depth);
  const text = JSON.stringify(wrapped, null, 2);
  return text.slice(prefix.length, text.length - suffix.length);
}

/** `value` as printed as the value of a member at `depth`. */
function valueAt(depth: number, value: unknown): string {
  const member = memberAt(depth, '', value);
  return member.slice(2 * depth + 4);
}

/** Appends `{ members }` as printed at `depth` to `parts`, from its members' texts (printed at depth + 1). */
function pushObject(parts: string[], depth: number, members: string[]): void {
  if (members.length === 0) return void parts.push('{}');
  let glue = '{\n';
  for (const member of members) {
    parts.push(glue, member);
    glue = ',\n';
  }
  parts.push(`\n${'  '.repeat(depth)}}`);
}

/** Printed meta schemas by name: in OpenAPI 3 components (depth 3) and Swagger definitions (depth 2). */
const metaV3 = new Map<string, string>();
const metaV2 = new Map<string, string>();
const isMeta = (name: string, schema: SchemaOrRef) => META_SCHEMAS[name] === schema;

function schemaV3(name: string, schema: SchemaOrRef): string {
  if (!isMeta(name, schema)) return memberAt(3, name, schema);
  let text = metaV3.get(name);
  if (text === undefined) metaV3.set(name, (text = memberAt(3, name, schema)));
  return text;
}

/**
 * The Swagger definition of a schema whose OpenAPI 3 member text is `v3`. Without nullable and
 * int-or-string (what toV2Schema rewrites besides references), it is that text one level out with
 * its references renamed; the search is on printed keys, so a false match only costs a print.
 */
function schemaV2(name: string, schema: SchemaOrRef, v3: string): string {
  if (!isMeta(name, schema)) {
    if (v3.includes('"nullable": ') || v3.includes('"x-kubernetes-int-or-string": ') || v3.includes('"allOf": ')) return memberAt(2, name, toV2Schema(schema));
    return v3.slice(2).replaceAll('\n  ', '\n').replaceAll('"$ref": "#/components/schemas/', '"$ref": "#/definitions/');
  }
  let text = metaV2.get(name);
  if (text === undefined) metaV2.set(name, (text = memberAt(2, name, definitionV2(name, schema))));
  return text;
}

const INFO_TEXT = valueAt(1, INFO);
const V3_HEAD = `{\n  "openapi": "3.0.0",\n  "info": ${INFO_TEXT},\n  "paths": `;

/**
 * jsonFile(path, { openapi, info, paths, components: { schemas } }), printed by parts (paths: their
 * printed text; schemas: their member texts) and left as parts: a regeneration's write compares
 * and encodes only the parts that changed (write/file.ts), and the paths' text is often the one
 * printed last time (printedPaths).
 */
function v3File(path: string, paths: readonly string[], schemas: string[]): EmittedFile {
  const parts = [V3_HEAD, ...paths, ',\n  "components": {\n    "schemas": '];
  pushObject(parts, 2, schemas);
  parts.push('\n  }\n}\n');
  return partsFile(path, parts);
}

/** A version's paths as printed: its OpenAPI 3 `paths` value, its Swagger paths and the parameter declarations they refer to. */
interface PrintedPaths {
  /** The OpenAPI 3 `paths` value's text, as parts (expandQueryParts). */
  v3: readonly string[];
  v2Paths: Map<string, string>;
  v2Parameters: Map<string, string>;
}

/**
 * The paths printed last, by version, with their key: the JSON of the version's kinds' resource
 * definitions, of which its operations, and so its printed paths, are a function
 * (resourceOperations; the shared query lists and the parameters' keys depend only on content).
 * Editing a field changes a version's schemas but not its paths: `kgen generate --watch` then
 * prints only the schemas again (the paths are ~90 % of a version's OpenAPI 3 document).
 */
const lastPaths = new Map<string, { key: string; printed: PrintedPaths }>();

function printedPaths(version: ApiVersion, operations: Operation[]): PrintedPaths {
  const key = JSON.stringify(version.kinds.map(resourceDefinition));
  const id = versionId(version);
  const last = lastPaths.get(id);
  if (last?.key === key) return last.printed;
  const declared = new Map<string, Json>();
  const declare: Declare = (key, p) => {
    if (!declared.has(key)) declared.set(key, p);
  };
  const paths = v2Paths(operations, (query) => queryParameters(query, 'v2', declare), sharedParameter(declare));
  const printed: PrintedPaths = {
    v3: expandQueryParts(valueAt(1, v3Paths(operations))),
    v2Paths: new Map(Object.keys(paths).map((path) => [path, expandQuery(memberAt(2, path, paths[path]))])),
    v2Parameters: new Map([...declared].map(([k, p]) => [k, memberAt(2, k, p)])),
  };
  lastPaths.set(id, { key, printed });
  return printed;
}

/** The v3 document's `components.schemas` alone, as one line of JSON (the same objects as v3File prints). */
function schemasFile(version: ApiVersion, spec: VersionSpec): EmittedFile {
  return { path: schemasPath(version.group, version.name), content: `${JSON.stringify({ components: { schemas: spec.schemas } })}\n` };
}

function versionOutput(version: ApiVersion, options: EmitOptions): VersionOutput {
  const key = JSON.stringify(options);
  const kept = outputs.get(version);
  if (kept && kept.options === key) return kept.output;
  const spec = buildVersion(version, options);
  const paths = printedPaths(version, spec.operations);
  const names = Object.keys(spec.schemas);
  const schemas = names.map((name) => schemaV3(name, spec.schemas[name]!));
  const output: VersionOutput = {
    spec: () => spec,
    v3: v3File(openapiPath(version.group, version.name), paths.v3, schemas),
    schemas: schemasFile(version, spec),
    v2Paths: paths.v2Paths,
    v2Definitions: new Map(names.map((name, i) => [name, schemaV2(name, spec.schemas[name]!, schemas[i]!)])),
    v2Parameters: paths.v2Parameters,
  };
  outputs.set(version, { options: key, output });
  return output;
}

/** jsonFile(path, v2Document(specs)), printed from the versions' printed parts. */
function swaggerFile(versions: VersionOutput[]): EmittedFile {
  const paths = new Map<string, string>();
  const definitions = new Map<string, string>();
  const parameters = new Map<string, string>();
  // Two versions sharing a path would merge their operations, and two parameters under one key
  // take numbered keys: print the whole document.
  const whole = () => jsonFile(SWAGGER, v2Document(versions.map((o) => o.spec())));
  if (parameterKeys.collided) return whole();
  for (const v of versions) {
    for (const [path, text] of v.v2Paths) {
      if (paths.has(path)) return whole();
      paths.set(path, text);
    }
    for (const [name, text] of v.v2Definitions) definitions.set(name, text);
    for (const [key, text] of v.v2Parameters) {
      if (parameters.has(key) && parameters.get(key) !== text) return whole();
      parameters.set(key, text);
    }
  }
  const parts = [`{\n  "swagger": "2.0",\n  "info": ${INFO_TEXT},\n  "paths": `];
  const sorted = (members: Map<string, string>) => [...members.keys()].sort().map((k) => members.get(k)!);
  pushObject(parts, 1, sorted(paths));
  parts.push(',\n  "definitions": ');
  pushObject(parts, 1, sorted(definitions));
  if (parameters.size > 0) {
    parts.push(',\n  "parameters": ');
    pushObject(parts, 1, sorted(parameters));
  }
  parts.push('\n}\n');
  // Not joined here: the writer compares and writes the ~3,100 parts as they are (write/file.ts).
  return partsFile(SWAGGER, parts);
}

const SWAGGER = 'openapi/v2/swagger.json';

/**
 * Across runs, the outputs of kgen's built-in versions (the same in every project: ~60 ms of a
 * cold run's printing, core/v1 with PodSpec the most of it) are kept in kgen's cache (../cache.ts)
 * as one entry, named by a hash of:
 * - the entry's FORMAT;
 * - the code that prints them (./code-key.ts: this module's import closure, which holds the
 *   runtime's OpenAPI builders and meta schemas, every template, the packages' versions);
 * - the emit options (every EmitOptions member, KEYED_OPTIONS; test/generator/builtin-openapi-cache.test.ts
 *   fails when EmitOptions gains one);
 * - per served built-in version, in model order: a hash of the JSON text of the checked version
 *   object (versionDigest; plain data: everything the builders read of it, whatever the checker
 *   or the project's other groups did to it).
 * A hit puts the entry's printed texts into `outputs` (above), so versionOutput finds them; a miss
 * prints as before and proposes the entry for write/ to store. Either way the texts are the same.
 */
const FORMAT = 3;
const ENTRY_PREFIX = 'builtin-openapi-';
const CODE = fileURLToPath(import.meta.url);
export const KEYED_OPTIONS = ['maxDescriptionLength', 'crdMaxDescriptionLength'] as const;

/**
 * The entry's layout: one line of JSON (Header), then the printed texts one after another, UTF-8.
 * The header gives each text's byte range in that body, so a hit decodes each text on its own:
 * the texts stay one-byte strings unless they hold a non-ASCII character themselves (a JSON entry
 * of the texts is decoded and parsed as a whole, and one curly quote in a built-in description
 * makes all of it a two-byte string: ~15 ms against ~3 ms for these 2.8 MB).
 */
type Range = [start: number, end: number];
interface Header {
  /** By version id: its OpenAPI 3 document, its Swagger paths and definitions, in printing order. */
  versions: Record<string, { v3: [path: string, ...Range]; schemas: [path: string, ...Range]; v2Paths: [string, ...Range][]; v2Definitions: [string, ...Range][]; v2Parameters: [string, ...Range][] }>;
}

const versionId = (v: ApiVersion) => `${v.group}/${v.name}`;

export function emitOpenAPI(checked: CheckedModel, options: EmitOptions = {}, kept?: KeptOutput): EmittedFile[] {
  const across = kept?.cache?.dir ? keptAcrossRuns(checked, options, kept) : undefined;
  // Unserved versions (@kgen:unservedversion) have no paths or documents.
  const versions = checked.served.groups.flatMap((g) => g.versions.map((v) => versionOutput(v, options)));
  across?.();
  return [...versions.flatMap((v) => [v.v3, v.schemas]), swaggerFile(versions)];
}

const isRanged = (p: unknown): p is [string, number, number] => Array.isArray(p) && p.length === 3 && typeof p[0] === 'string' && Number.isInteger(p[1]) && Number.isInteger(p[2]) && p[1] <= p[2];

/**
 * Looks up the built-in versions' entry: on a hit, fills `outputs` from it; returns what to run
 * after printing (on a miss, proposing the entry from `outputs`), or undefined.
 */
function keptAcrossRuns(checked: CheckedModel, options: EmitOptions, kept: KeptOutput): (() => void) | undefined {
  const versions = checked.served.groups.flatMap((g) => g.versions.filter(kept.builtin));
  if (versions.length === 0) return undefined;
  const key = JSON.stringify(options);
  // Already printed in this process (kgen generate --watch after its first run): nothing to look up.
  if (versions.every((v) => outputs.get(v)?.options === key)) return undefined;
  const parts = [String(FORMAT), codeKey(CODE), JSON.stringify(KEYED_OPTIONS.map((o) => options[o] ?? null))];
  for (const v of versions) parts.push(versionId(v), versionDigest(v));
  const name = `${ENTRY_PREFIX}${entryKey(...parts)}.txt`;
  const bytes = readEntryBytes(kept.cache, name);
  if (bytes !== undefined) {
    try {
      const newline = bytes.indexOf(10);
      const header = JSON.parse(bytes.toString('utf8', 0, newline)) as Header;
      const body = newline + 1;
      const found = versions.map((v) => header.versions[versionId(v)]);
      const ok = (r: [string, number, number]) => isRanged(r) && body + r[2] <= bytes.length;
      if (found.every((o) => o && ok(o.v3) && ok(o.schemas) && Array.isArray(o.v2Paths) && o.v2Paths.every(ok) && Array.isArray(o.v2Definitions) && o.v2Definitions.every(ok) && Array.isArray(o.v2Parameters) && o.v2Parameters.every(ok))) {
        const text = (r: [string, number, number]) => bytes.toString('utf8', body + r[1], body + r[2]);
        const members = (rs: [string, number, number][]) => new Map(rs.map((r) => [r[0], text(r)]));
        versions.forEach((v, i) => {
          const o = found[i]!;
          let spec: VersionSpec | undefined;
          const output: VersionOutput = {
            spec: () => (spec ??= buildVersion(v, options)),
            v3: { path: o.v3[0], content: text(o.v3) },
            schemas: { path: o.schemas[0], content: text(o.schemas) },
            v2Paths: members(o.v2Paths),
            v2Definitions: members(o.v2Definitions),
            v2Parameters: members(o.v2Parameters),
          };
          outputs.set(v, { options: key, output });
        });
        return undefined;
      }
    } catch {
      // A damaged entry is a miss.
    }
  }
  return () => {
    const header: Header = { versions: {} };
    const texts: string[] = [];
    let at = 0;
    const range = (label: string, text: string): [string, number, number] => {
      const start = at;
      at += Buffer.byteLength(text);
      texts.push(text);
      return [label, start, at];
    };
    for (const v of versions) {
      const { output } = outputs.get(v)!;
      header.versions[versionId(v)] = {
        v3: range(output.v3.path, output.v3.content),
        schemas: range(output.schemas.path, output.schemas.content),
        v2Paths: [...output.v2Paths].map(([path, text]) => range(path, text)),
        v2Definitions: [...output.v2Definitions].map(([name, text]) => range(name, text)),
        v2Parameters: [...output.v2Parameters].map(([key, text]) => range(key, text)),
      };
    }
    proposeEntry(kept.cache, name, `${JSON.stringify(header)}\n${texts.join('')}`, ENTRY_PREFIX);
  };
}
