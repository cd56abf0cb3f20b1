/**
 * Property-based tests (fast-check, fixed seeds) of merge patch, JSON patch and server-side
 * apply against the independent reference models in reference.ts: directly through the
 * server's patch functions and field manager, and over HTTP through a test server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../runtime/api/meta.js';
import { FieldManager, FieldSet } from '../../runtime/endpoints/fieldmanager/index.js';
import { UNTYPED } from '../../runtime/endpoints/fieldmanager/typeschema.js';
import { applyJSONPatch, mergePatch } from '../../runtime/endpoints/patchers.js';
import { startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';
import { ApplyModel, isObject, leaves, PatchError, refJSONPatch, refMergePatch, type JSONValue, type Operation } from './reference.js';

const SEED = 20240611;

// ---- generators ----

const key = fc.constantFrom('a', 'b', 'c', 'd/e', 'f~g');
const scalar = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('x', 'y', ''), fc.boolean());
const json: fc.Arbitrary<JSONValue> = fc.letrec<{ value: JSONValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;
const jsonObject = fc.dictionary(key, json, { maxKeys: 4, noNullPrototype: true });

const pointer = fc
  .array(fc.oneof(key, fc.constantFrom('0', '1', '2', '-', '01')), { maxLength: 3 })
  .map((ts) => ts.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''));
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constantFrom('add' as const, 'replace' as const, 'test' as const), path: pointer, value: json }),
  fc.record({ op: fc.constant('remove' as const), path: pointer }),
  fc.record({ op: fc.constantFrom('move' as const, 'copy' as const), from: pointer, path: pointer }),
);

describe('JSON merge patch (RFC 7396) matches the RFC\'s pseudo-code', () => {
  it('for generated documents and patches', () => {
    fc.assert(
      fc.property(json, json, (target, patch) => {
        const before = JSON.stringify(target);
        assert.deepEqual(mergePatch(target, patch), refMergePatch(target, patch));
        assert.equal(JSON.stringify(target), before, 'the target is not mutated');
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(jsonObject, jsonObject, (target, patch) => {
        const once = mergePatch(target, patch);
        assert.deepEqual(mergePatch(once, patch), once);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('JSON patch (RFC 6902) matches a reference implementation', () => {
  it('succeeds and fails alike, with equal results', () => {
    fc.assert(
      fc.property(jsonObject, fc.array(operation, { minLength: 1, maxLength: 4 }), (doc, ops) => {
        let expected: JSONValue | PatchError;
        try {
          expected = refJSONPatch(doc, ops);
        } catch (err) {
          if (!(err instanceof PatchError)) throw err;
          expected = err;
        }
        let actual: unknown;
        try {
          actual = applyJSONPatch(doc, ops);
        } catch (err) {
          actual = err;
        }
        if (expected instanceof PatchError) {
          assert.ok(actual instanceof Error, `expected a failure (${expected.message}), got ${JSON.stringify(actual)}`);
          assert.equal((actual as { code?: number }).code, 422);
        } else {
          assert.deepEqual(actual, expected);
        }
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it('with operations built from paths that exist', () => {
    const docAndOps = jsonObject
      .filter((d) => Object.keys(d).length > 0)
      .chain((doc) => {
        const paths = [...pathsOf(doc)];
        const p = fc.constantFrom(...paths);
        const op: fc.Arbitrary<Operation> = fc.oneof(
          fc.record({ op: fc.constantFrom('replace' as const, 'test' as const, 'add' as const), path: p, value: json }),
          fc.record({ op: fc.constant('remove' as const), path: p }),
          fc.record({ op: fc.constantFrom('copy' as const, 'move' as const), from: p, path: p }),
        );
        return fc.tuple(fc.constant(doc), fc.array(op, { minLength: 1, maxLength: 3 }));
      });
    fc.assert(
      fc.property(docAndOps, ([doc, ops]) => {
        let expected: JSONValue | undefined;
        try {
          expected = refJSONPatch(doc, ops);
        } catch (err) {
          if (!(err instanceof PatchError)) throw err;
        }
        if (expected === undefined) assert.throws(() => applyJSONPatch(doc, ops));
        else assert.deepEqual(applyJSONPatch(doc, ops), expected);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });
});

function* pathsOf(v: JSONValue, prefix = ''): Generator<string> {
  if (prefix) yield prefix;
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* pathsOf(v[i]!, `${prefix}/${i}`);
  else if (isObject(v)) for (const [k, c] of Object.entries(v)) yield* pathsOf(c, `${prefix}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

// ---- server-side apply on map-only documents ----

/** Map-only documents of a fixed shape: x, y, z are scalars, m and n non-empty maps of the same shape. */
const applyDoc: fc.Arbitrary<Record<string, JSONValue>> = fc.letrec<{ doc: Record<string, JSONValue> }>((tie) => ({
  doc: fc
    .record(
      {
        x: fc.constantFrom(1, 2, 'v'),
        y: fc.constantFrom(1, 2),
        z: fc.constantFrom('p', 'q'),
        m: tie('doc'),
        n: tie('doc'),
      },
      { requiredKeys: [], noNullPrototype: true },
    )
    .filter((d) => Object.keys(d).length > 0),
})).doc;
const boundedDoc = fc.constant(null).chain(() => applyDoc).filter((d) => depth(d) <= 3);
const manager = fc.constantFrom('m1', 'm2', 'm3');
const applies = fc.array(fc.tuple(manager, boundedDoc, fc.boolean()), { minLength: 1, maxLength: 6 });

function depth(v: unknown): number {
  return isObject(v) ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;
}

function stripMeta(obj: KubeObject): Record<string, unknown> {
  const { metadata: _m, ...rest } = obj;
  return rest;
}

/** Leaf paths each manager owns according to the object's managedFields. */
function ownership(obj: KubeObject): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const entry of obj.metadata.managedFields ?? []) {
    for (const path of FieldSet.fromFieldsV1(entry.fieldsV1).paths()) {
      const p = path.map((pe) => pe.slice(2)).join('.');
      if (!out.has(p)) out.set(p, new Set());
      out.get(p)!.add(entry.manager!);
    }
  }
  return out;
}

function ownersOfLeaves(obj: KubeObject): Map<string, string[]> {
  const leafPaths = new Set(leaves(stripMeta(obj) as Record<string, JSONValue>).keys());
  const out = new Map<string, string[]>();
  for (const [p, owners] of ownership(obj)) if (leafPaths.has(p)) out.set(p, [...owners].sort());
  return new Map([...out].sort());
}

function modelOwners(model: ApplyModel): Map<string, string[]> {
  return new Map([...model.owners].filter(([, o]) => o.size > 0).map(([p, o]) => [p, [...o].sort()] as [string, string[]]).sort());
}

describe('server-side apply matches a reference model on map-only documents', () => {
  const fm = new FieldManager({ structure: UNTYPED, apiVersion: 'example.com/v1', statusEnabled: false });

  it('for sequences of applies by several managers, forced or not', () => {
    fc.assert(
      fc.property(applies, (steps) => {
        const model = new ApplyModel();
        let live: KubeObject | undefined;
        for (const [mgr, config, force] of steps) {
          const expectedConflicts = model.conflicts(mgr, config);
          let result: KubeObject;
          try {
            result = fm.apply(live, { metadata: {}, ...config } as KubeObject, mgr, { force });
          } catch (err) {
            assert.ok(!force && expectedConflicts.length > 0, `unexpected failure: ${(err as Error).message}`);
            const causes = (err as { status: { details: { causes: { message: string; field: string }[] } } }).status.details.causes;
            const got = causes.map((c) => `${JSON.parse(c.message.replace('conflict with ', ''))} ${c.field.slice(1)}`).sort();
            assert.deepEqual(got, expectedConflicts);
            continue;
          }
          assert.ok(force || expectedConflicts.length === 0, `expected conflicts ${expectedConflicts.join(', ')}`);
          model.apply(mgr, config);
          live = result;
          const { metadata, ...content } = result;
          assert.deepEqual(Object.keys(metadata), Object.keys(metadata).includes('managedFields') ? ['managedFields'] : []);
          assert.deepEqual(content, model.obj);
          assert.deepEqual(ownersOfLeaves(result), modelOwners(model));
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
  });
});

// ---- over HTTP ----

describe('patches over HTTP match the reference models', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const labelKey = fc.constantFrom('a', 'b', 'c');
  const labels = fc.dictionary(labelKey, fc.option(fc.constantFrom('1', '2'), { nil: null }), { maxKeys: 3, noNullPrototype: true });

  it('merge patches of labels, spinnerLabels, replicas and color', async () => {
    const patch = fc.record(
      {
        metadata: fc.record({ labels }, { requiredKeys: [], noNullPrototype: true }),
        spec: fc.record(
          { spinnerLabels: labels, replicas: fc.integer({ min: 0, max: 5 }), color: fc.option(fc.constantFrom('red', 'blue'), { nil: null }) },
          { requiredKeys: [], noNullPrototype: true },
        ),
      },
      { requiredKeys: [], noNullPrototype: true },
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(patch, { minLength: 1, maxLength: 3 }), async (patches) => {
        const name = `mp${n++}`;
        const created = await t.request('POST', WIDGETS, { body: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name }, spec: { replicas: 1 } } });
        let expected = { labels: created.body.metadata.labels as JSONValue | undefined, spec: created.body.spec as JSONValue };
        for (const p of patches) {
          const r = await t.request('PATCH', `${WIDGETS}/${name}`, { body: p, contentType: 'application/merge-patch+json' });
          assert.equal(r.status, 200, r.text);
          const merged = refMergePatch({ metadata: { labels: expected.labels ?? null }, spec: expected.spec } as JSONValue, p as JSONValue) as {
            metadata: { labels?: JSONValue };
            spec: JSONValue;
          };
          expected = { labels: merged.metadata.labels ?? undefined, spec: merged.spec };
          assert.deepEqual(r.body.spec, expected.spec);
          assert.deepEqual(r.body.metadata.labels ?? {}, expected.labels ?? {});
        }
        await t.request('DELETE', `${WIDGETS}/${name}`);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('applies of spinnerLabels and labels by two managers', async () => {
    const flat = fc.dictionary(labelKey, fc.constantFrom('1', '2'), { minKeys: 1, maxKeys: 3, noNullPrototype: true });
    const config = fc.record({ labels: flat, spinnerLabels: flat }, { requiredKeys: [], noNullPrototype: true });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('m1', 'm2'), config), { minLength: 1, maxLength: 4 }), async (steps) => {
        const name = `ap${n++}`;
        const model = new ApplyModel();
        for (const [mgr, c] of steps) {
          const doc: Record<string, JSONValue> = {};
          if (c.labels) doc.labels = c.labels;
          if (c.spinnerLabels) doc.spinnerLabels = c.spinnerLabels;
          const body = {
            apiVersion: 'widgets.example.com/v1',
            kind: 'Widget',
            metadata: { name, ...(c.labels ? { labels: c.labels } : {}) },
            spec: { replicas: 1, ...(c.spinnerLabels ? { spinnerLabels: c.spinnerLabels } : {}) },
          };
          const r = await t.request('PATCH', `${WIDGETS}/${name}?fieldManager=${mgr}&force=true`, { body, contentType: 'application/apply-patch+yaml' });
          assert.ok(r.status === 200 || r.status === 201, r.text);
          model.apply(mgr, doc);
          const expected = model.obj ?? {};
          assert.deepEqual(r.body.metadata.labels ?? {}, expected.labels ?? {});
          assert.deepEqual(r.body.spec.spinnerLabels ?? {}, expected.spinnerLabels ?? {});
        }
        await t.request('DELETE', `${WIDGETS}/${name}`);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});
