/**
 * @kgen:protobuf: the field numbers written on an API's fields reach its ResourceDefinition
 * (`protobuf`, for the kind and every type it uses; a kind's metadata is 1; `N.M` as [N, M]), and
 * the server derives the kind's protobuf message from them, an embedded struct's fields held in
 * their own message. The words after a number (`pointer`, `microtime`) reach it beside the
 * number and make the server keep a decoded zero / microseconds. A kind without numbers has none
 * (JSON only). Diagnostics KG120-KG122: test/generator/diagnostics.test.ts.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { compile } from '../../generator/index.js';
import { protobufMessageFor } from '../../runtime/endpoints/protobuf-schema.js';
import { tempDir, writeApis } from './helpers.js';

const dir = tempDir('protobuf-numbers');
after(() => rmSync(dir, { recursive: true, force: true }));

const apisDir = writeApis(dir, {
  'widgets.example.com/v1/widget.ts': `
import type { int32 } from 'kgen';

/** @kgen:resource */
export interface Widget {
  /** @kgen:protobuf 2 */
  spec: WidgetSpec;
}

export interface WidgetSpec {
  /** @kgen:protobuf 1 */
  size: string;
  /** @kgen:protobuf 3.1 */
  apiGroups?: string[];
}

/** @kgen:resource */
export interface Gizmo {
  /** @kgen:protobuf 2 */
  spec: GizmoSpec;
}

export interface GizmoSpec {
  /** @kgen:protobuf 1 pointer */
  replicas?: int32;
  /** @kgen:protobuf 2 */
  minReadySeconds?: int32;
  /**
   * @format date-time
   * @kgen:protobuf 3   microtime
   */
  renewTime?: string;
  /**
   * @format date-time
   * @kgen:protobuf 4
   */
  created?: string;
  /** @kgen:protobuf 5.1 pointer */
  mode?: Mode;
}

export type Mode = 'Fast' | 'Slow';

/** @kgen:resource */
export interface Gadget {
  spec: { size: string };
}
`,
});

const result = compile({ apisDir, builtins: false });
const file = (path: string) => result.files.find((f) => f.path === path)?.content ?? '';

describe('@kgen:protobuf', () => {
  test('compiles', () => assert.equal(result.ok, true, JSON.stringify(result.diagnostics)));

  test('the numbers reach the kind\'s ResourceDefinition, metadata as 1 and N.M as [N, M]', () => {
    const storage = file('storage/widgets.example.com/v1/widgets.ts');
    assert.match(storage, /protobuf: \{\n {4}'com\.example\.widgets\.v1\.Widget': \{\n {6}metadata: 1,\n {6}spec: 2,\n {4}\},\n {4}'com\.example\.widgets\.v1\.WidgetSpec': \{\n {6}size: 1,\n {6}apiGroups: \[3, 1\],\n {4}\},\n {2}\},/);
  });

  test('the words pointer and microtime are carried in the model and reach the definition beside the number', () => {
    const spec = result.model!.groups.flatMap((g) => g.versions).flatMap((v) => v.types).find((t) => t.name === 'GizmoSpec')!;
    assert.equal(spec.schema.type, 'object');
    const texts = spec.schema.type === 'object' ? spec.schema.properties.map((p) => [p.name, p.schema.protobuf?.text]) : [];
    assert.deepEqual(texts, [['replicas', '1 pointer'], ['minReadySeconds', '2'], ['renewTime', '3 microtime'], ['created', '4'], ['mode', '5.1 pointer']]);
    const storage = file('storage/widgets.example.com/v1/gizmos.ts');
    assert.match(
      storage,
      /'com\.example\.widgets\.v1\.GizmoSpec': \{\n {6}replicas: \{ number: 1, pointer: true \},\n {6}minReadySeconds: 2,\n {6}renewTime: \{ number: 3, microTime: true \},\n {6}created: 4,\n {6}mode: \{ number: \[5, 1\], pointer: true \},\n {4}\},/,
    );
  });

  test('the server keeps a pointer\'s decoded zero and reads a microtime at microsecond precision', () => {
    const doc = JSON.parse(file('openapi/v3/apis/widgets.example.com/v1.json'));
    const numbers = {
      'com.example.widgets.v1.Gizmo': { metadata: 1, spec: 2 },
      'com.example.widgets.v1.GizmoSpec': { replicas: { number: 1, pointer: true as const }, minReadySeconds: 2, renewTime: { number: 3, microTime: true as const }, created: 4, mode: { number: [5, 1] as const, pointer: true as const } },
    };
    const desc = protobufMessageFor(doc.components.schemas, 'com.example.widgets.v1.Gizmo', numbers)!;
    assert.ok(desc, 'derived');
    const spec = desc[2]!.kind as Record<number, { name: string; kind: unknown; keepZero?: boolean; inline?: boolean }>;
    assert.deepEqual([spec[1]!.name, spec[1]!.keepZero], ['replicas', true]);
    assert.deepEqual([spec[2]!.name, spec[2]!.keepZero], ['minReadySeconds', undefined]);
    assert.deepEqual([spec[3]!.name, spec[3]!.kind], ['renewTime', 'microTime']);
    assert.deepEqual([spec[4]!.name, spec[4]!.kind], ['created', 'time']);
    const embedded = spec[5]!.kind as Record<number, { name: string; keepZero?: boolean }>;
    assert.deepEqual([embedded[1]!.name, embedded[1]!.keepZero], ['mode', true]);
  });

  test('the client validator of a numbered kind gets the same facts as its ResourceDefinition; one without numbers gets none', () => {
    const validators = file('validate/widgets.example.com/v1.ts');
    const gizmo = validators.split('\n').find((l) => l.startsWith('export const gizmoValidator'))!;
    assert.match(gizmo, /, \(\) => \(\{"com\.example\.widgets\.v1\.Gizmo":\{"metadata":1,"spec":2\},"com\.example\.widgets\.v1\.GizmoSpec":\{"replicas":\{"number":1,"pointer":true\},"minReadySeconds":2,"renewTime":\{"number":3,"microTime":true\},"created":4,"mode":\{"number":\[5,1\],"pointer":true\}\}\}\)\);$/);
    const gadget = validators.split('\n').find((l) => l.startsWith('export const gadgetValidator'))!;
    assert.doesNotMatch(gadget, /"metadata":1/);
    const facts = JSON.parse(file('validate/go-fields.json'));
    assert.deepEqual(Object.keys(facts), ['widgets.example.com/v1']);
    assert.deepEqual(facts['widgets.example.com/v1']['com.example.widgets.v1.GizmoSpec'].replicas, { number: 1, pointer: true });
  });

  test('a kind without numbers has none: it is served as JSON only', () => {
    assert.doesNotMatch(file('storage/widgets.example.com/v1/gadgets.ts'), /protobuf/);
  });

  test('the server derives the message from them, the embedded field in a message of its own', () => {
    const doc = JSON.parse(file('openapi/v3/apis/widgets.example.com/v1.json'));
    const numbers = {
      'com.example.widgets.v1.Widget': { metadata: 1, spec: 2 },
      'com.example.widgets.v1.WidgetSpec': { size: 1, apiGroups: [3, 1] as const },
    };
    const desc = protobufMessageFor(doc.components.schemas, 'com.example.widgets.v1.Widget', numbers)!;
    assert.ok(desc, 'derived');
    const spec = desc[2]!.kind as Record<number, { name: string; kind: unknown; inline?: boolean; repeated?: boolean }>;
    assert.equal(spec[1]!.name, 'size');
    assert.equal(spec[3]!.inline, true);
    const embedded = spec[3]!.kind as Record<number, { name: string; repeated?: boolean }>;
    assert.deepEqual([embedded[1]!.name, embedded[1]!.repeated], ['apiGroups', true]);
    assert.equal(protobufMessageFor(doc.components.schemas, 'com.example.widgets.v1.Gadget', undefined), undefined);
  });
});
