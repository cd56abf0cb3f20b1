#!/usr/bin/env node
/**
 * Ports apiextensions-apiserver's TestValidateCustomResourceDefinitionValidation table
 * (pkg/apis/apiextensions/validation/validation_test.go) to JSON: every case's schema (Go
 * composite literals of the internal apiextensions types turned into the JSON kube's v1 API
 * reads), statusEnabled, validationOptions and expected errors (type, field path, and the
 * `contains` text where kube's case has one). The output is committed beside this script
 * (validation-cases.json); the table test reads it.
 *
 *   node test/apiextensions/kube/port-go-cases.mjs <validation_test.go> <commit> > test/apiextensions/kube/validation-cases.json
 *
 * A small reader of Go composite literals, enough for this table: struct, slice and map literals
 * (with elided element types), string/raw-string/number/bool literals, ptr.To(...), jsonPtr(...),
 * the invalid()/required()/... matchers with .contains(), and package-level schema variables.
 */
import { readFileSync } from 'node:fs';

const [file, commit] = process.argv.slice(2);
const src = readFileSync(file, 'utf8');

function tokenize(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) { i++; continue; }
    if (text.startsWith('//', i)) { i = text.indexOf('\n', i); if (i < 0) break; continue; }
    if (text.startsWith('/*', i)) { i = text.indexOf('*/', i) + 2; continue; }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out.push({ t: 'str', v: JSON.parse(text.slice(i, j + 1).replace(/\\x([0-9a-f]{2})/gi, '\\u00$1')) });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const j = text.indexOf('`', i + 1);
      out.push({ t: 'str', v: text.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 40));
    if (num && (c !== '-' || /[\d]/.test(text[i + 1]))) { out.push({ t: 'num', v: Number(num[0]) }); i += num[0].length; continue; }
    const id = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(text.slice(i, i + 200));
    if (id) { out.push({ t: 'id', v: id[0] }); i += id[0].length; continue; }
    out.push({ t: 'p', v: c });
    i++;
  }
  return out;
}

/** Go field names whose JSON name is not the lower-camel form. */
const JSON_NAMES = {
  ID: 'id', Schema: '$schema', Ref: '$ref', OpenAPIV3Schema: 'openAPIV3Schema', URL: 'url',
  XPreserveUnknownFields: 'x-kubernetes-preserve-unknown-fields', XEmbeddedResource: 'x-kubernetes-embedded-resource',
  XIntOrString: 'x-kubernetes-int-or-string', XListMapKeys: 'x-kubernetes-list-map-keys', XListType: 'x-kubernetes-list-type',
  XMapType: 'x-kubernetes-map-type', XValidations: 'x-kubernetes-validations',
};
const jsonName = (go) => JSON_NAMES[go] ?? go[0].toLowerCase() + go.slice(1);

class Parser {
  constructor(tokens, vars) { this.k = tokens; this.i = 0; this.vars = vars; }
  peek(o = 0) { return this.k[this.i + o]; }
  next() { return this.k[this.i++]; }
  is(v, o = 0) { const t = this.peek(o); return t && t.v === v && (t.t === 'p' || t.t === 'id'); }
  expect(v) { const t = this.next(); if (t.v !== v) throw new Error(`expected ${v}, got ${JSON.stringify(t)} at ${this.i}`); return t; }

  /** A type: ident, []T, map[K]V, *T; returns its text. */
  type() {
    if (this.is('*')) { this.next(); return '*' + this.type(); }
    if (this.is('[')) { this.next(); this.expect(']'); return '[]' + this.type(); }
    if (this.is('map')) { this.next(); this.expect('['); const k = this.type(); this.expect(']'); return `map[${k}]` + this.type(); }
    const t = this.next();
    if (t.t !== 'id') throw new Error(`type expected, got ${JSON.stringify(t)}`);
    if (t.v === 'interface' && this.is('{') && this.is('}', 1)) { this.next(); this.next(); return 'interface{}'; }
    if (this.is('[')) { this.next(); const g = this.type(); this.expect(']'); return `${t.v}[${g}]`; }
    return t.v;
  }

  value(elided) {
    const t = this.peek();
    if (t.t === 'str' || t.t === 'num') { this.next(); return this.postfix(t.v); }
    if (this.is('&')) { this.next(); return this.value(elided); }
    if (this.is('{')) return this.composite(elided ?? '');
    if (this.is('[') || this.is('map') || this.is('*')) { const ty = this.type(); return this.composite(ty); }
    if (t.t === 'id') {
      if (t.v === 'true' || t.v === 'false') { this.next(); return t.v === 'true'; }
      if (t.v === 'nil') { this.next(); return null; }
      // A call, a generic call, a composite literal of a named type, or a variable.
      if (this.is('(', 1) || (this.is('[', 1) && t.v === 'ptr.To')) return this.call();
      if (this.is('{', 1)) { this.next(); return this.composite(t.v); }
      this.next();
      if (t.v in this.vars) return this.vars[t.v]();
      return { $go: t.v };
    }
    throw new Error(`value expected, got ${JSON.stringify(t)}`);
  }

  postfix(v) { return v; }

  call() {
    const name = this.next().v;
    if (this.is('[')) { this.next(); this.type(); this.expect(']'); }
    this.expect('(');
    const args = [];
    while (!this.is(')')) { args.push(this.value()); if (this.is(',')) this.next(); }
    this.expect(')');
    let out;
    if (name === 'ptr.To' || name === 'jsonPtr' || name === 'strPtr' || name === 'int64Ptr') out = args[0];
    else if (['invalid', 'required', 'forbidden', 'unsupported', 'duplicate', 'tooMany', 'invalidtypecode', 'immutable'].includes(name)) out = { $match: name, path: args.join('.') };
    else if (name === 'version.MajorMinor') out = `${args[0]}.${args[1]}`;
    else if (name === 'environment.MustBaseEnvSet') out = { $celEnvironment: args[0] };
    else out = { $call: name, args };
    // `.contains("...")` after a matcher: the tokenizer reads `.contains` as punctuation then an identifier.
    if (this.is('.') && this.peek(1)?.v === 'contains') {
      this.next(); this.next(); this.expect('(');
      out = { ...out, contains: this.value() };
      this.expect(')');
    }
    return out;
  }

  composite(type) {
    this.expect('{');
    const elem = type.startsWith('[]') ? type.slice(2) : type.startsWith('map[') ? type.slice(type.indexOf(']') + 1) : undefined;
    const entries = [];
    while (!this.is('}')) {
      let key;
      const t = this.peek();
      if ((t.t === 'id' || t.t === 'str' || t.t === 'num') && this.is(':', 1)) { key = t; this.next(); this.next(); }
      const v = this.value(elem ?? undefined);
      entries.push([key, v]);
      if (this.is(',')) this.next();
    }
    this.expect('}');
    return shape(type, entries);
  }
}

/** The JSON a composite literal stands for. */
function shape(type, entries) {
  const bare = type.replace(/^\*/, '').replace(/^apiextensions\./, '');
  if (type.startsWith('map[')) return Object.fromEntries(entries.map(([k, v]) => [k.v, v]));
  if (type.startsWith('[]') || bare === 'ValidationRules' || bare === 'JSONSchemaDefinitions') {
    if (bare === 'JSONSchemaDefinitions') return Object.fromEntries(entries.map(([k, v]) => [k.v, v]));
    return entries.map(([, v]) => v);
  }
  if (entries.length > 0 && entries.every(([k]) => k === undefined)) return entries.map(([, v]) => v);
  const obj = Object.fromEntries(entries.map(([k, v]) => [k.t === 'id' ? jsonName(k.v) : k.v, v]));
  if (bare === 'JSONSchemaPropsOrArray') return obj.jSONSchemas ?? obj.$schema;
  if (bare === 'JSONSchemaPropsOrBool') return obj.$schema ?? obj.allows ?? false;
  if (bare === 'JSONSchemaPropsOrStringArray') return obj.$schema ?? obj.property;
  if (bare === 'CustomResourceValidation') return { openAPIV3Schema: obj.openAPIV3Schema ?? null };
  return obj;
}

/** Package-level `var name = <literal>` definitions, parsed on use. */
const vars = {};
for (const m of src.matchAll(/^var ([A-Za-z]\w*) = /gm)) {
  const start = m.index + m[0].length;
  vars[m[1]] = () => {
    const p = new Parser(tokenize(src.slice(start, start + 20000)), vars);
    return p.value();
  };
}
const example = /example = apiextensions\.JSON\(([^)]*)\)/.exec(src);
vars.example = () => (example ? JSON.parse(example[1].slice(1, -1)) : { $go: 'example' });

const fn = src.indexOf('func TestValidateCustomResourceDefinitionValidation(');
const open = src.indexOf('}{', fn) + 1;
const parser = new Parser(tokenize(src.slice(open)), vars);
const cases = parser.value('testCase').map((c) => ({
  name: c.name,
  schema: c.input?.openAPIV3Schema ?? null,
  statusEnabled: c.statusEnabled ?? false,
  opts: Object.fromEntries(Object.entries(c.opts ?? {}).map(([k, v]) => [k, v && typeof v === 'object' && '$celEnvironment' in v ? v.$celEnvironment : v])),
  errors: (c.expectedErrors ?? []).map((e) => ({ type: e.$match, path: e.path, ...(e.contains !== undefined ? { contains: e.contains } : {}) })),
}));
process.stdout.write(JSON.stringify({ source: `kubernetes/apiextensions-apiserver@${commit} pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinitionValidation`, cases }, null, 1) + '\n');
