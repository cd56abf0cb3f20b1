/**
 * A differential check of the CRD validation (runtime/apiextensions): runs validateCRD,
 * validateCRDUpdate, validateOpenAPISchema and the CEL cost estimate of one kgen tree over a
 * seeded corpus (the CRDs in the given folders, kube's ported test cases, and seeded mutations of
 * them: bad types, defaults, rules, misplaced x-kubernetes-* keywords, metadata, $ref…) and writes
 * one JSON line per case. Run it on two trees and compare the files: a change meant to make the
 * validation cheaper must leave them byte-identical.
 *
 *   node --import tsx bench/tools/crd-validation-diff.ts <tree> <out.jsonl> [cases=4000] [crd folders…]
 *   (folders default to <tree>/generated/crds; add a generated bench set, e.g. bench/synth output)
 *
 * It also fails a case whose input the validation changed.
 */
const [treeArg, outFile, nArg, ...dirArgs] = process.argv.slice(2);
if (!treeArg || !outFile) {
  console.error('usage: node --import tsx bench/tools/crd-validation-diff.ts <tree> <out.jsonl> [cases] [crd folders…]');
  process.exit(2);
}
const { resolve } = await import('node:path');
const { pathToFileURL } = await import('node:url');
const tree = pathToFileURL(resolve(treeArg)).href;
const here = new URL('../..', import.meta.url).pathname;
const N = Number(nArg ?? 1500);
const fs = await import('node:fs');
const yaml = await import('yaml');
const v = await import(`${tree}/runtime/apiextensions/validation.ts`);
const sr = await import(`${tree}/runtime/apiextensions/schema-rules.ts`);
const cost = await import(`${tree}/runtime/validation/cel-cost.ts`);
const kube = JSON.parse(fs.readFileSync(`${here}test/apiextensions/kube/crd-cases.json`, 'utf8'));
const vcases = JSON.parse(fs.readFileSync(`${here}test/apiextensions/kube/validation-cases.json`, 'utf8'));
const bases: any[] = [];
for (const dir of dirArgs.length > 0 ? dirArgs : [`${resolve(treeArg)}/generated/crds`]) {
  if (!fs.existsSync(dir)) continue;
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.yaml')) bases.push(yaml.parse(fs.readFileSync(`${dir}/${f}`, 'utf8')));
}
for (const c of kube.TestValidateCustomResourceDefinition) bases.push(c.resource);
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = <T,>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
const clone = (x: any) => structuredClone(x);
function nodesOf(s: any, out: any[] = [], depth = 0): any[] {
  if (!s || typeof s !== 'object' || Array.isArray(s) || depth > 30) return out;
  out.push(s);
  for (const p of Object.values(s.properties ?? {})) nodesOf(p, out, depth + 1);
  if (s.items) nodesOf(s.items, out, depth + 1);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') nodesOf(s.additionalProperties, out, depth + 1);
  for (const k of ['allOf', 'anyOf', 'oneOf']) for (const x of s[k] ?? []) nodesOf(x, out, depth + 1);
  if (s.not) nodesOf(s.not, out, depth + 1);
  return out;
}
const RULES = ['self == self', 'size(self) < 10', 'self.all(x, x == x)', 'self.all(x, x.all(y, y == "a"))', 'oldSelf == self', 'self.foo == 1', '!!bad(', 'self.matches("^a")', 'has(self.spec)', 'self.size() > 0 && self.all(x, size(x) > 0)', 'self > 0', 'self == "a"', 'self.exists(e, e.name == "x")'];
const mutations: ((s: any, root: any, crd: any) => void)[] = [
  (s) => { s.default = s.type === 'string' ? 'x' : s.type === 'integer' ? 3 : s.type === 'boolean' ? true : s.type === 'array' ? [] : {}; },
  (s) => { s.default = s.type === 'string' ? 5 : 'nope'; },
  (s) => { s.default = { unknownField: 1 }; },
  (s) => { s.default = null; },
  (s) => { (s['x-kubernetes-validations'] ??= []).push({ rule: pick(RULES) }); },
  (s) => { (s['x-kubernetes-validations'] ??= []).push({ rule: pick(RULES), messageExpression: pick(['"m"', 'self', '1']), reason: pick(['FieldValueInvalid', 'Bogus']) }); },
  (s) => { (s['x-kubernetes-validations'] ??= []).push({ rule: pick(RULES), fieldPath: pick(['.spec', '.x', "['a']", '.replicas']), optionalOldSelf: pick([true, false]) }); },
  (s) => { s.additionalProperties = pick([{ type: 'string' }, false, true]); },
  (s) => { s['x-kubernetes-preserve-unknown-fields'] = pick([true, false]); },
  (s) => { s.type = pick(['null', 'foo', '', undefined, 'object', 'array']); },
  (s) => { const k = pick(['$ref', 'patternProperties', 'definitions', 'id', 'dependencies', 'additionalItems', '$schema']); s[k] = k === '$ref' ? '#/definitions/x' : k === 'id' || k === '$schema' ? 'x' : { a: { type: 'string' } }; },
  (s) => { s.items = [{ type: 'string' }]; },
  (s) => { s.properties = { ...(s.properties ?? {}), bad: pick([null, 'x', 1, []]) }; },
  (s) => { s.allOf = [{ properties: { zz: { type: 'string', default: 'a' } } }, { minLength: 3 }]; },
  (s) => { s.anyOf = [{ type: 'integer' }, { type: 'string' }]; },
  (s) => { s.not = { required: ['x'] }; },
  (s) => { s.uniqueItems = true; },
  (s) => { s['x-kubernetes-list-type'] = pick(['map', 'set', 'atomic', 'weird']); if (rnd() < 0.5) s['x-kubernetes-list-map-keys'] = pick([['name'], [], ['x', 'x']]); },
  (s) => { s['x-kubernetes-embedded-resource'] = true; },
  (s) => { s['x-kubernetes-int-or-string'] = true; },
  (s) => { s.nullable = true; },
  (s) => { s['x-kubernetes-map-type'] = pick(['atomic', 'granular', 'weird']); },
  (s) => { s.properties = { ...(s.properties ?? {}), metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' }, labels: { type: 'object', additionalProperties: { type: 'string' }, default: { a: 'b' } } } } }; },
  (s) => { s.pattern = pick(['^a', '(', '\\p{L}']); },
  (s) => { s.type = 'array'; s.items = { type: 'array', items: { type: 'string' } }; delete s.properties; s['x-kubernetes-validations'] = [{ rule: 'self.all(x, x.all(y, y == "a"))' }]; },
  (s) => { s.format = pick(['date-time', 'int32', 'bogus']); },
  (s) => { s.maxItems = 3; s.maxLength = 4; },
  (s) => { delete s.items; },
  (s) => { s.required = ['nope']; },
  (_s, root) => { root.properties = { ...(root.properties ?? {}), metadata: { type: 'object', properties: { labels: { type: 'object' } } } }; },
  (_s, root) => { root.properties = { ...(root.properties ?? {}), metadata: { type: 'object', default: { name: 'x' } } }; },
  (_s, _root, crd) => { for (const ver of crd.spec.versions) ver.selectableFields = [{ jsonPath: pick(['.spec.mode', '.spec.nope', '.metadata.name', '.spec']) }]; },
  (_s, _root, crd) => { for (const ver of crd.spec.versions) ver.subresources = { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } }; },
  (s) => { s['x-kubernetes-validations'] = [{ rule: 'self.all(x, x.matches("^[a-z]+$"))', message: 'm' }]; },
  (s) => { s['x-kubernetes-validations'] = [{ rule: '' }, { rule: 'a\nb' }, { rule: 'true', message: ' ' }]; },
  (s) => { s.type = 'object'; s['x-kubernetes-embedded-resource'] = true; s.properties = { apiVersion: { type: 'string', default: pick(['v1', 'a/b/c', 5]) }, kind: { type: 'string', default: pick(['Foo', '%', 3]) }, metadata: { type: 'object', properties: { name: { type: 'string', default: pick(['ok', 'x y', 1]) }, labels: { type: 'object', additionalProperties: { type: 'string' }, default: pick([{ a: 'b' }, { 'x y': 'z' }]) } } }, spec: { type: 'object', properties: { n: { type: 'integer', default: pick([1, 'a']) } } } }; delete s.items; delete s.additionalProperties; },
  (s) => { s.type = 'object'; s.properties = { a: { type: 'object', default: pick([{ b: 1 }, { b: 'x' }, { c: 1 }]), properties: { b: { type: 'integer', default: pick([2, 'y']), minimum: 0 } } } }; delete s.items; delete s.additionalProperties; },
  (s) => { s.type = 'array'; s.items = { type: 'object', properties: { name: { type: 'string', default: 'n' }, x: { type: 'string', enum: ['a'], default: pick(['a', 'b']) } } }; delete s.properties; delete s.additionalProperties; },
  (s) => { s.type = 'object'; s.properties = { q: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: pick([{ apiVersion: 'v1', kind: 'K', metadata: { name: 'x' } }, { kind: 'K' }, { apiVersion: 1 }]) } }; delete s.items; },
  (s) => { s.type = 'object'; s.properties = { m: { type: 'object', additionalProperties: { type: 'integer', default: pick([1, 'a']) }, default: pick([{ a: 1 }, { a: 'x' }]) } }; delete s.items; },
  (s) => { s.allOf = [{ properties: { zz: { maxLength: 2 } } }]; s.properties = { ...(s.properties ?? {}), zz: { type: 'string', default: pick(['abc', 'a']) } }; s.type = 'object'; },
  (s) => { s.properties = { ...(s.properties ?? {}), r: { type: 'string', default: 'x', 'x-kubernetes-validations': [{ rule: pick(['self == "x"', 'self == "y"']) }] } }; s.type = 'object'; },
  (s) => { s.type = 'object'; s.properties = { t: { type: 'string', format: pick(['date-time', 'int32', 'byte']), default: pick(['2020-01-01T00:00:00Z', 'zz', 5]) }, p: { type: 'string', pattern: pick(['^a+$', '(']), default: pick(['aaa', 'b']) } }; },
];
const cases: { name: string; crd: any; old?: any }[] = [];
bases.forEach((b, i) => cases.push({ name: `base${i}`, crd: b }));
for (const c of kube.TestValidateCustomResourceDefinitionUpdate) cases.push({ name: `kupd:${c.name}`, crd: c.resource, old: c.old });
for (let i = 0; i < N; i++) {
  const base = pick(bases);
  if (!base?.spec?.versions?.length) continue;
  const crd = clone(base);
  const n = 1 + Math.floor(rnd() * 3);
  for (let j = 0; j < n; j++) {
    const ver = pick(crd.spec.versions as any[]);
    const root = ver?.schema?.openAPIV3Schema;
    if (!root) continue;
    const nodes = nodesOf(root);
    const m = pick(mutations);
    try { m(pick(nodes), root, crd); } catch {}
  }
  cases.push({ name: `mut${i}`, crd, old: rnd() < 0.3 ? base : undefined });
  if (rnd() < 0.15) cases.push({ name: `mutrev${i}`, crd: clone(base), old: crd });
}
const out: string[] = [];
const t0 = process.cpuUsage();
for (const c of cases) {
  const crd = clone(c.crd);
  if (!crd.status) crd.status = { storedVersions: [(crd.spec?.versions ?? []).find((x: any) => x.storage)?.name ?? 'v1'] };
  let res: any;
  try { res = c.old ? v.validateCRDUpdate(crd, clone(c.old)) : v.validateCRD(crd); } catch (e) { res = 'THROW ' + (e as Error).message; }
  const costs = (crd.spec?.versions ?? []).map((ver: any) => { try { return ver?.schema?.openAPIV3Schema ? cost.estimateSchemaCost(ver.schema.openAPIV3Schema) : null; } catch (e) { return 'THROW'; } });
  out.push(JSON.stringify({ name: c.name, res, costs }));
  // The input must not have been mutated by validation.
  const again = clone(c.crd); if (!again.status) again.status = crd.status;
  if (JSON.stringify(again) !== JSON.stringify(crd)) out.push(JSON.stringify({ name: c.name, mutated: true }));
}
for (const c of vcases.cases) {
  let res: any;
  try { res = sr.validateOpenAPISchema(clone(c.schema), 'root', c.statusEnabled ?? false, { requireStructuralSchema: false, requireValidPropertyType: false, requireAtomicSetType: false, requireMapListKeysMapSetValidation: false, ...c.opts }); } catch (e) { res = 'THROW'; }
  out.push(JSON.stringify({ name: `vc:${c.name}`, res }));
}
const c = process.cpuUsage(t0);
fs.writeFileSync(outFile, out.join('\n') + '\n');
console.log('cases', cases.length + vcases.cases.length, 'cpu', ((c.user + c.system) / 1000).toFixed(0), 'ms', 'with errors', out.filter((l) => l.includes('"field"')).length);
