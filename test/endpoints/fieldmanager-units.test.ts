/** The field manager's pieces: field sets and FieldsV1, the structure read from OpenAPI, compare and toFieldSet. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldManager } from '../../runtime/endpoints/fieldmanager/fieldmanager.js';
import { FieldSet, pathString } from '../../runtime/endpoints/fieldmanager/fieldset.js';
import { compare, createdFieldsV1, toFieldSet } from '../../runtime/endpoints/fieldmanager/typed.js';
import { buildTypeSchema } from '../../runtime/endpoints/fieldmanager/typeschema.js';

const SCHEMAS = {
  Thing: {
    type: 'object',
    properties: {
      spec: { allOf: [{ $ref: '#/components/schemas/Spec' }], description: 'the spec' },
    },
  },
  Spec: {
    type: 'object',
    properties: {
      ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, proto: { type: 'string' }, n: { type: 'integer' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto'] },
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      args: { type: 'array', items: { type: 'string' } },
      selector: { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-map-type': 'atomic' },
      env: { type: 'object', additionalProperties: { type: 'string' } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      next: { $ref: '#/components/schemas/Spec' },
    },
  },
};

/** obj with its managedFields' times replaced (two calls may straddle a second). */
function sameTime<T extends { metadata?: { managedFields?: { time?: string }[] } }>(obj: T): T {
  for (const e of obj.metadata?.managedFields ?? []) if (e.time) e.time = 'T';
  return obj;
}

describe('FieldSet', () => {
  it('round-trips FieldsV1 with members that have children', () => {
    const v1 = { 'f:spec': { '.': {}, 'f:b': {}, 'f:a': { 'k:{"name":"x"}': { '.': {}, 'f:n': {} } }, 'f:t': { 'v:"q"': {} } } };
    const set = FieldSet.fromFieldsV1(v1);
    assert.deepEqual(set.toFieldsV1(), { 'f:spec': { '.': {}, 'f:a': { 'k:{"name":"x"}': { '.': {}, 'f:n': {} } }, 'f:b': {}, 'f:t': { 'v:"q"': {} } } });
    assert.deepEqual(set.paths().map(pathString), ['.spec', '.spec.a[name="x"]', '.spec.a[name="x"].n', '.spec.b', '.spec.t[="q"]']);
    assert.throws(() => FieldSet.fromFieldsV1({ 'x:bad': {} }), /invalid FieldsV1 key/);
    for (const bad of ['', 'f', 'F:a', 'fx', ':f', 'ff:a', 'k']) {
      assert.throws(() => FieldSet.fromFieldsV1({ 'f:spec': { [bad]: {} } }), /invalid FieldsV1 key/, JSON.stringify(bad));
    }
    for (const good of ['f:', 'k:{}', 'v:1', 'i:0']) assert.deepEqual(FieldSet.fromFieldsV1({ [good]: {} }).paths(), [[good]]);
    assert.throws(() => FieldSet.fromFieldsV1({ 'f:a': [] }), /FieldsV1 must be an object/);
  });

  it('computes union, difference, intersection and recursive difference path by path', () => {
    const a = FieldSet.of(['f:a'], ['f:a', 'f:b'], ['f:c']);
    const b = FieldSet.of(['f:a'], ['f:d']);
    assert.deepEqual(a.union(b).paths(), [['f:a'], ['f:a', 'f:b'], ['f:c'], ['f:d']]);
    assert.deepEqual(a.difference(b).paths(), [['f:a', 'f:b'], ['f:c']]);
    assert.deepEqual(a.intersection(b).paths(), [['f:a']]);
    assert.deepEqual(a.recursiveDifference(b).paths(), [['f:c']]);
  });

  it('difference and recursive difference agree with a path-by-path reference on random sets, and leave their operands as they were', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const randomSet = () => {
      const set = new FieldSet();
      for (let i = rand(12); i >= 0; i--) {
        const path = Array.from({ length: 1 + rand(4) }, () => ['f:a', 'f:b', 'k:{"n":1}', 'v:"x"', 'i:0'][rand(5)]!);
        set.insert(path);
      }
      // An empty interior node (no member at or under it) must not show up in results.
      if (rand(3) === 0) set.at([])!.children.set('f:empty', new FieldSet());
      return set;
    };
    const key = (p: readonly string[]) => JSON.stringify(p);
    const under = (p: readonly string[], q: readonly string[]) => q.length <= p.length && q.every((pe, i) => pe === p[i]);
    for (let round = 0; round < 300; round++) {
      const a = randomSet();
      const b = randomSet();
      const before = JSON.stringify([a.toFieldsV1(), b.toFieldsV1(), a.paths(), b.paths()]);
      const bPaths = new Set(b.paths().map(key));
      const diff = a.difference(b);
      assert.deepEqual(diff.paths(), a.paths().filter((p) => !bPaths.has(key(p))));
      const rdiff = a.recursiveDifference(b);
      assert.deepEqual(rdiff.paths(), a.paths().filter((p) => !b.paths().some((q) => under(p, q))));
      for (const result of [diff, rdiff]) {
        assert.equal(result.at(['f:empty']), undefined, 'no empty nodes');
        assert.deepEqual(FieldSet.fromFieldsV1(result.toFieldsV1()).paths(), result.paths());
      }
      // A union of a result (which may share subtrees with a) works on a copy.
      diff.union(b);
      rdiff.union(FieldSet.of(['f:a', 'f:new']));
      assert.equal(JSON.stringify([a.toFieldsV1(), b.toFieldsV1(), a.paths(), b.paths()]), before);
    }
  });
});

describe('structure and typed walks', () => {
  const root = buildTypeSchema(SCHEMAS, 'Thing');

  it('reads list types, map types, additionalProperties, preserve-unknown-fields and recursion from OpenAPI', () => {
    assert.equal(root.kind, 'map');
    const spec = root.kind === 'map' ? root.fields.get('spec')!.type : undefined;
    assert.equal(spec?.kind, 'map');
    if (spec?.kind !== 'map') return;
    const ports = spec.fields.get('ports')!.type;
    assert.deepEqual(ports.kind === 'list' && [ports.listType, ports.keys], ['map', ['name', 'proto']]);
    const tags = spec.fields.get('tags')!.type;
    const args = spec.fields.get('args')!.type;
    const selector = spec.fields.get('selector')!.type;
    assert.equal(tags.kind === 'list' && tags.listType, 'set');
    assert.equal(args.kind === 'list' && args.listType, 'atomic');
    assert.equal(selector.kind === 'map' && selector.atomic, true);
    assert.equal(spec.fields.get('next')!.type, spec, 'a recursive reference is the same node');
  });

  it('lists the fields a value sets, as SMD does', () => {
    const value = {
      spec: {
        ports: [{ name: 'a', proto: 'TCP', n: 1 }],
        tags: ['x'],
        args: ['1', '2'],
        selector: { a: 'b' },
        env: { K: 'v' },
        free: { deep: { er: 1 } },
        next: {},
      },
    };
    assert.deepEqual(toFieldSet(value, root).toFieldsV1(), {
      'f:spec': {
        'f:args': {},
        'f:env': { 'f:K': {} },
        'f:free': { 'f:deep': { '.': {}, 'f:er': {} } },
        'f:next': {},
        'f:ports': { 'k:{"name":"a","proto":"TCP"}': { '.': {}, 'f:n': {}, 'f:name': {}, 'f:proto': {} } },
        'f:selector': {},
        'f:tags': { 'v:"x"': {} },
      },
    });
  });

  it('compares values into added, modified and removed fields', () => {
    const before = { spec: { tags: ['x', 'y'], env: { A: '1', B: '2' }, args: ['1'] } };
    const after = { spec: { tags: ['y', 'z'], env: { A: '9' }, args: ['1', '2'], selector: { a: 'q' } } };
    const c = compare(before, after, root);
    assert.deepEqual(c.added.paths().map(pathString), ['.spec.selector', '.spec.tags[="z"]']);
    assert.deepEqual(c.modified.paths().map(pathString), ['.spec.args', '.spec.env.A']);
    assert.deepEqual(c.removed.paths().map(pathString), ['.spec.env.B', '.spec.tags[="x"]']);
  });

  it('writes the fields of a create as compare from an empty object finds them', () => {
    const values: unknown[] = [
      {},
      { spec: {} },
      { metadata: { name: 'a', labels: { x: '1' } }, spec: { tags: ['x', 'x', 'y'], env: {}, args: [], selector: { a: 'q' } } },
      { spec: { ports: [{ name: 'a', proto: 'TCP', n: 1 }, { name: 'a', proto: 'TCP', n: 2 }, { name: 'b' }], free: { deep: { er: [1, { z: null }] } }, next: { next: { env: { k: 'v' } } } } },
      { spec: { tags: 'not-a-list', env: null, ports: [3, 'x'], extra: { u: 1 } }, status: { phase: 'x' }, weird: undefined },
    ];
    const omit = FieldSet.of(['f:metadata'], ['f:metadata', 'f:name'], ['f:spec', 'f:env'], ['f:spec', 'f:ports', 'k:{"name":"a","proto":"TCP"}', 'f:n']);
    for (const value of values) {
      for (const skip of [undefined, 'status']) {
        let expected = compare({}, value, root).added.difference(omit);
        if (skip) expected = expected.recursiveDifference(FieldSet.of([`f:${skip}`]));
        assert.deepEqual(createdFieldsV1(value, root, omit, skip), expected.toFieldsV1(), JSON.stringify(value));
        assert.equal(JSON.stringify(createdFieldsV1(value, root, omit, skip)), JSON.stringify(expected.toFieldsV1()));
      }
    }
  });

  it('records a create as the general update from nothing does', () => {
    for (const statusEnabled of [false, true]) {
      const fm = new FieldManager({ structure: root, apiVersion: 'x.example.com/v1', statusEnabled });
      const objects = [
        { apiVersion: 'x.example.com/v1', kind: 'Thing', metadata: { name: 'a', namespace: 'n', labels: { l: '1' }, uid: 'u' }, spec: { tags: ['a'], ports: [{ name: 'p', n: 1 }] }, status: { s: 1 } },
        { apiVersion: 'x.example.com/v1', kind: 'Thing', metadata: { name: 'b' } },
        { apiVersion: 'x.example.com/v1', kind: 'Thing', metadata: { name: 'c', managedFields: [] }, spec: { env: { a: 'b' } } },
      ];
      for (const obj of objects) {
        // `[{}]` clears what the request brings: update() then takes its general way.
        const general = sameTime(fm.update(undefined, { ...obj, metadata: { ...obj.metadata, managedFields: [{}] } } as never, 'm'));
        const created = sameTime(fm.update(undefined, structuredClone(obj) as never, 'm'));
        assert.deepEqual(created, general);
        assert.equal(JSON.stringify(created), JSON.stringify(general));
      }
    }
  });
});

describe('FieldSet differences that share subtrees', () => {
  it('give the path-by-path results of copying, and leave both operands as they were', () => {
    let seed = 17;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const elements = ['f:a', 'f:b', 'f:c', 'k:{"name":"x"}', 'v:1', 'i:0'];
    const randomSet = () => {
      const set = new FieldSet();
      for (let i = rand(8); i > 0; i--) set.insert(Array.from({ length: 1 + rand(4) }, () => elements[rand(elements.length)]!));
      return set;
    };
    const key = (p: string[]) => p.join('\u0000');
    const pathsOf = (s: FieldSet) => s.paths().map(key).sort();
    for (let i = 0; i < 3000; i++) {
      const a = randomSet();
      const b = randomSet();
      const [aBefore, bBefore] = [pathsOf(a), pathsOf(b)];
      const bPaths = new Set(pathsOf(b));
      const difference = a.difference(b);
      const recursive = a.recursiveDifference(b);
      assert.deepEqual(pathsOf(difference), aBefore.filter((p) => !bPaths.has(p)));
      const underMember = (p: string[]) => p.some((_, n) => bPaths.has(key(p.slice(0, n + 1))));
      assert.deepEqual(pathsOf(recursive), a.paths().filter((p) => !underMember(p)).map(key).sort());
      // A union of a result (what the field manager does next) copies; the operands never change.
      difference.union(randomSet());
      recursive.union(randomSet());
      assert.deepEqual(pathsOf(a), aBefore);
      assert.deepEqual(pathsOf(b), bBefore);
    }
  });
});

describe('update managers are capped (kube capManagers: DefaultMaxUpdateManagers, "ancient-changes")', () => {
  const fm = () => new FieldManager({ structure: buildTypeSchema(SCHEMAS, 'Thing'), apiVersion: 'x.example.com/v1', statusEnabled: false });
  const thing = (env: Record<string, string>, managedFields?: unknown[]) =>
    ({ apiVersion: 'x.example.com/v1', kind: 'Thing', metadata: { name: 'a', ...(managedFields ? { managedFields } : {}) }, spec: { env } }) as never;
  /** An Update entry of `manager` owning spec.env.<field>, at second `second`. */
  const entry = (manager: string, field: string, second: number, apiVersion = 'x.example.com/v1') => ({
    manager, operation: 'Update', apiVersion, time: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString().replace('.000Z', 'Z'),
    fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:env': { [`f:${field}`]: {} } } },
  });

  it('a 31st updater leaves 10 Update entries, the oldest merged per version into ancient-changes', () => {
    let live: { metadata: { managedFields: { manager: string; operation: string; apiVersion: string; fieldsV1: unknown }[] }; spec: { env: Record<string, string> } } | undefined;
    const env: Record<string, string> = {};
    for (let i = 0; i < 31; i++) {
      env[`k${i}`] = 'v';
      live = fm().update(live as never, thing({ ...env }, live?.metadata.managedFields), `m${String(i).padStart(2, '0')}`) as never;
    }
    const entries = live!.metadata.managedFields;
    assert.equal(entries.length, 10, entries.map((e) => e.manager).join(','));
    const ancient = entries.filter((e) => e.manager === 'ancient-changes');
    assert.equal(ancient.length, 1);
    assert.equal(ancient[0]!.operation, 'Update');
    // Nothing is lost: every field is still owned by someone.
    const owned = new Set(entries.flatMap((e) => Object.keys((e.fieldsV1 as { 'f:spec': { 'f:env': object } })['f:spec']['f:env']).filter((k) => k.startsWith('f:'))));
    assert.equal(owned.size, 31);
  });

  it('merges by time, then identity, keeping one bucket per apiVersion, as kube', () => {
    const mf = [
      ...Array.from({ length: 6 }, (_, i) => entry(`old${i}`, `o${i}`, i, 'x.example.com/v1beta1')),
      ...Array.from({ length: 6 }, (_, i) => entry(`new${i}`, `n${i}`, 10 + i)),
    ];
    const env = Object.fromEntries([...mf.map((e) => Object.keys(e.fieldsV1['f:spec']['f:env'])[0]!.slice(2)), 'z'].map((k) => [k, 'v']));
    const live = thing(Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'z')), mf);
    const out = fm().update(live, thing(env, mf), 'latest') as unknown as { metadata: { managedFields: { manager: string; apiVersion: string; time: string; fieldsV1: unknown }[] } };
    // 13 updaters, cap 10: old0 is the first of v1beta1 (kept, then turned into the bucket),
    // old1..old3 are merged into it; old4, old5 and the v1 ones stay.
    assert.deepEqual(out.metadata.managedFields.map((e) => `${e.manager}@${e.apiVersion}`), [
      'ancient-changes@x.example.com/v1beta1', 'old4@x.example.com/v1beta1', 'old5@x.example.com/v1beta1',
      ...Array.from({ length: 6 }, (_, i) => `new${i}@x.example.com/v1`), 'latest@x.example.com/v1',
    ]);
    const bucket = out.metadata.managedFields[0]!;
    assert.deepEqual(bucket.fieldsV1, { 'f:spec': { 'f:env': { 'f:o0': {}, 'f:o1': {}, 'f:o2': {}, 'f:o3': {} } } });
    assert.equal(bucket.time, mf[3]!.time, 'the bucket takes the time of the last update merged into it');
  });

  it('does not count appliers', () => {
    const mf = Array.from({ length: 12 }, (_, i) => ({ ...entry(`a${i}`, `a${i}`, i), operation: 'Apply' }));
    const env = Object.fromEntries(mf.map((_, i) => [`a${i}`, 'v']));
    const out = fm().update(thing(env, mf), thing({ ...env, z: 'v' }, mf), 'u') as unknown as { metadata: { managedFields: unknown[] } };
    assert.equal(out.metadata.managedFields.length, 13);
  });
});
