/**
 * The conversion-data annotation (runtime/conversion/conversion-data.ts): what a version cannot
 * hold is kept under the version it came from, restored when the object converts back to that
 * version, and travels untouched through conversions to other versions; inputs are never mutated,
 * and an annotation that is not kgen's JSON is read as empty.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { ConversionScope, conversionDataAnnotation, defineConversion, readConversionData, spoke, type KindConversion } from '../../runtime/conversion/index.js';

const ANNOTATION = 'demo.example.com/conversion-data';
type Obj = KubeObject & { spec?: Record<string, unknown> };

/** v2 (hub) has spec.a and spec.hubOnly; v1 has spec.a and spec.v1Only; v3 has spec.a only. */
function demo(): KindConversion {
  const convert = (apiVersion: string, fields: string[], kept: string[], restored: string[]) => (src: Obj, scope: ConversionScope): Obj => {
    const out: Obj = { apiVersion: `demo.example.com/${apiVersion}`, kind: 'Demo', metadata: structuredClone(src.metadata) };
    if (src.spec) {
      const spec: Record<string, unknown> = {};
      const s = scope.field('spec');
      for (const f of fields) if (src.spec[f] !== undefined) spec[f] = src.spec[f];
      for (const f of kept) s.keep(f, src.spec[f]);
      for (const f of restored) s.restore(spec, f);
      out.spec = spec;
    }
    return out;
  };
  return defineConversion({
    group: 'demo.example.com',
    kind: 'Demo',
    storageVersion: 'v2',
    spokes: {
      v1: spoke(convert('v2', ['a'], ['v1Only'], ['hubOnly']) as never, convert('v1', ['a'], ['hubOnly'], ['v1Only']) as never),
      v3: spoke(convert('v2', ['a'], [], ['hubOnly']) as never, convert('v3', ['a'], ['hubOnly'], []) as never),
    },
  });
}

const freeze = <T>(v: T): T => {
  if (v && typeof v === 'object') {
    Object.values(v).forEach(freeze);
    Object.freeze(v);
  }
  return v;
};

test('the annotation is named for the group, as Cluster API names cluster.x-k8s.io/conversion-data', () => {
  assert.equal(conversionDataAnnotation('demo.example.com'), ANNOTATION);
  assert.equal(conversionDataAnnotation(''), 'core/conversion-data');
});

test('kept under the source version, restored and removed on the way back; the input is never mutated', () => {
  const c = demo();
  const hub = freeze({ apiVersion: 'demo.example.com/v2', kind: 'Demo', metadata: { name: 'x' }, spec: { a: 1, hubOnly: { deep: [1, 2] } } }) as Obj;
  const v1 = c.convert(hub, 'v2', 'v1') as Obj;
  assert.deepEqual(v1.spec, { a: 1 });
  assert.deepEqual(readConversionData(v1, 'demo.example.com'), { v2: { spec: { hubOnly: { deep: [1, 2] } } } });
  assert.deepEqual(c.convert(freeze(v1), 'v1', 'v2'), hub);
});

test("data kept for one spoke travels through the hub and another spoke, and comes back to its own", () => {
  const c = demo();
  const v1 = freeze({ apiVersion: 'demo.example.com/v1', kind: 'Demo', metadata: { name: 'x' }, spec: { a: 1, v1Only: 'old' } }) as Obj;
  const hub = c.convert(v1, 'v1', 'v2') as Obj;
  assert.deepEqual(hub.spec, { a: 1 });
  // Through v3, which keeps nothing of v1's (and whose hub data is none here).
  const v3 = c.convert(hub, 'v2', 'v3') as Obj;
  assert.deepEqual(readConversionData(v3, 'demo.example.com'), { v1: { spec: { v1Only: 'old' } } });
  const hubAgain = c.convert(v3, 'v3', 'v2');
  assert.deepEqual(c.convert(hubAgain, 'v2', 'v1'), v1);
  // v1 → v3 directly (through the hub in one call) keeps v1's field for later too.
  const direct = c.convert(v1, 'v1', 'v3') as Obj;
  assert.deepEqual(c.convert(direct, 'v3', 'v1'), v1);
});

test('what the source version keeps now supersedes what it kept before', () => {
  const c = demo();
  const v1 = c.convert({ apiVersion: 'demo.example.com/v2', kind: 'Demo', metadata: { name: 'x' }, spec: { a: 1, hubOnly: 'kept' } } as Obj, 'v2', 'v1') as Obj;
  // A stale entry for v1 itself (say, written by hand) is replaced by what v1 → v2 keeps now.
  const data = JSON.parse(v1.metadata.annotations![ANNOTATION]!);
  v1.metadata.annotations![ANNOTATION] = JSON.stringify({ ...data, v1: { spec: { v1Only: 'stale' } } });
  v1.spec = { a: 2, v1Only: 'fresh' };
  const hub = c.convert(v1, 'v1', 'v2') as Obj;
  assert.deepEqual(hub.spec, { a: 2, hubOnly: 'kept' });
  assert.deepEqual(readConversionData(hub, 'demo.example.com'), { v1: { spec: { v1Only: 'fresh' } } });
});

test("an annotation that is not kgen's JSON is read as empty and replaced; other annotations stay", () => {
  const c = demo();
  // kgen never writes an integer beyond 2^53 (no body holds one): restored, it would be another number.
  for (const garbage of ['not json', '[1,2]', '"text"', '{"v2":"not an object"}', '{"v2":{"spec":{"hubOnly":9007199254740993}}}']) {
    const v1 = { apiVersion: 'demo.example.com/v1', kind: 'Demo', metadata: { name: 'x', annotations: { [ANNOTATION]: garbage, other: 'y' } }, spec: { a: 1 } } as Obj;
    const hub = c.convert(v1, 'v1', 'v2') as Obj;
    assert.deepEqual(hub.spec, { a: 1 }, garbage);
    assert.deepEqual(hub.metadata.annotations, { other: 'y' }, garbage);
  }
});
