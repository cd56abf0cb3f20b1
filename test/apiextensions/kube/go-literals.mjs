/**
 * A small reader of Go composite literals, shared by the scripts that port kube's Go test tables
 * (port-go-cases.mjs, port-crd-cases.mjs): struct, slice and map literals (with elided element
 * types), string/raw-string/number/bool literals, ptr.To(...), jsonPtr(...), []byte(...), the
 * invalid()/required()/... matchers with .contains(), and package-level variables.
 * Struct literals become the JSON kube's API reads (Go field names turned into JSON names).
 */

/** An interpreted Go string literal's body, unescaped. */
function goString(body) {
  const simple = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g, (_, e) => {
    if (e in simple) return simple[e];
    if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    throw new Error(`unknown Go escape \\${e}`);
  });
}

export function tokenize(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) { i++; continue; }
    if (text.startsWith('//', i)) { i = text.indexOf('\n', i); if (i < 0) break; continue; }
    if (text.startsWith('/*', i)) { i = text.indexOf('*/', i) + 2; continue; }
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out.push({ t: 'str', v: goString(text.slice(i + 1, j)) });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      const j = end < 0 ? text.length : end;
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

/** Go constants of the apiextensions and meta packages, as their values. */
export const GO_CONSTANTS = {
  'apiextensions.NamespaceScoped': 'Namespaced', 'apiextensions.ClusterScoped': 'Cluster',
  'apiextensions.Established': 'Established', 'apiextensions.NamesAccepted': 'NamesAccepted',
  'apiextensions.ConditionTrue': 'True', 'apiextensions.ConditionFalse': 'False', 'apiextensions.ConditionUnknown': 'Unknown',
  'apiextensions.WebhookConverter': 'Webhook', 'apiextensions.NoneConverter': 'None',
  'apiextensions.FieldValueRequired': 'FieldValueRequired', 'apiextensions.FieldValueInvalid': 'FieldValueInvalid',
  'apiextensions.FieldValueDuplicate': 'FieldValueDuplicate', 'apiextensions.FieldValueForbidden': 'FieldValueForbidden',
};

/** Go field names whose JSON name is not the lower-camel form. */
export const JSON_NAMES = {
  ObjectMeta: 'metadata', CABundle: 'caBundle', JSONPath: 'jsonPath',
  ID: 'id', Schema: '$schema', Ref: '$ref', OpenAPIV3Schema: 'openAPIV3Schema', URL: 'url',
  XPreserveUnknownFields: 'x-kubernetes-preserve-unknown-fields', XEmbeddedResource: 'x-kubernetes-embedded-resource',
  XIntOrString: 'x-kubernetes-int-or-string', XListMapKeys: 'x-kubernetes-list-map-keys', XListType: 'x-kubernetes-list-type',
  XMapType: 'x-kubernetes-map-type', XValidations: 'x-kubernetes-validations',
};
export const jsonName = (go) => JSON_NAMES[go] ?? go[0].toLowerCase() + go.slice(1);

export class Parser {
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
    if (this.is('[') || this.is('map') || this.is('*')) {
      const ty = this.type();
      // []byte("...") and []byte(`...`): bytes, which JSON carries in base64.
      if (ty === '[]byte' && this.is('(')) { this.next(); const v = this.value(); this.expect(')'); return Buffer.from(v, 'utf8').toString('base64'); }
      return this.composite(ty);
    }
    if (t.t === 'id') {
      if (t.v === 'true' || t.v === 'false') { this.next(); return t.v === 'true'; }
      if (t.v === 'nil') { this.next(); return null; }
      // func() *T { r := <value>; return &r }(): the value.
      if (t.v === 'func' && this.is('(', 1)) return this.pointerFunc();
      if (t.v in GO_CONSTANTS) { this.next(); return GO_CONSTANTS[t.v]; }
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

  pointerFunc() {
    while (!(this.peek().t === 'id' && this.is(':', 1) && this.is('=', 2))) this.next();
    this.next(); this.next(); this.next();
    const v = this.value();
    while (!(this.is('}') && this.is('(', 1) && this.is(')', 2))) this.next();
    this.next(); this.next(); this.next();
    return v;
  }

  call() {
    const name = this.next().v;
    if (this.is('[')) { this.next(); this.type(); this.expect(']'); }
    this.expect('(');
    const args = [];
    while (!this.is(')')) { args.push(this.value()); if (this.is(',')) this.next(); }
    this.expect(')');
    let out;
    if (name === 'ptr.To' || name === 'jsonPtr' || name === 'strPtr' || name === 'int64Ptr') out = args[0];
    else if (name === 'invalidIndex') out = { $match: 'invalid', path: `${args.slice(1).join('.')}[${args[0]}]` };
    else if (['invalid', 'required', 'forbidden', 'unsupported', 'duplicate', 'tooMany', 'invalidtypecode', 'immutable'].includes(name)) out = { $match: name, path: args.join('.') };
    else if (name === 'version.MajorMinor') out = `${args[0]}.${args[1]}`;
    else if (name === 'environment.MustBaseEnvSet') out = { $celEnvironment: args[0] };
    // Conversions to a named string type or int64: the value itself.
    else if (/^apiextensions\.[A-Z]\w*$/.test(name) || name === 'int64' || name === 'uint64' || name === 'string') out = args[0];
    else if (name === 'jsonSlice') out = args;
    else if (name === 'strings.Repeat') out = String(args[0]).repeat(args[1]);
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
export function shape(type, entries) {
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
  if (bare === 'CustomResourceDefinitionVersion' && '$schema' in obj) { const { $schema, ...rest } = obj; return { ...rest, schema: $schema }; }
  if (bare === 'CustomResourceValidation') return { openAPIV3Schema: obj.openAPIV3Schema ?? null };
  return obj;
}

/** Package-level `var name = <literal>` definitions of `src`, parsed on use. */
export function packageVars(src) {
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
  return vars;
}
