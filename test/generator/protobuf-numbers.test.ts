/**
 * @kgen:protobuf: the field numbers written on an API's fields reach its ResourceDefinition
 * (`protobuf`, for the kind and every type it uses; a kind's metadata is 1; `N.M` as [N, M]), and
 * the server derives the kind's protobuf message from them, an embedded struct's fields held in
 * their own message. A kind without numbers has none (JSON only). Diagnostics KG120-KG122:
 * test/generator/diagnostics.test.ts.
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
