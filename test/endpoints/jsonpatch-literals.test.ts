/**
 * jsonpatch-literals.ts: a JSON patch's number literals (those JSON.parse does not keep) at their
 * places in the patch's result, followed through the operations: moved, copied, shifted in a
 * list, replaced by a plain number (then gone); `test` values never count; a forged marker in a
 * patch names nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonPatchResultLiterals } from '../../runtime/endpoints/jsonpatch-literals.js';
import type { NumberLiterals } from '../../runtime/validation/json-literals.js';

function flat(tree: NumberLiterals | undefined, path = '', out = new Map<string, string>()): Map<string, string> | undefined {
  if (tree === undefined) return undefined;
  if (tree.literal !== undefined) out.set(path, tree.literal);
  for (const [place, child] of tree.children ?? []) flat(child, typeof place === 'number' ? `${path}[${place}]` : `${path}.${place}`, out);
  return out;
}

const places = (doc: unknown, text: string) => flat(jsonPatchResultLiterals(doc, JSON.parse(text), text));

describe('jsonPatchResultLiterals', () => {
  const doc = { spec: { replicas: 1, list: [10, 20] } };

  it('finds add and replace values where they end up', () => {
    assert.deepEqual(places(doc, '[{"op":"replace","path":"/spec/replicas","value":2.0}]'), new Map([['.spec.replicas', '2.0']]));
    // An add into a list shifts what follows; the later replace of index 2 is the old 20.
    assert.deepEqual(
      places(doc, '[{"op":"add","path":"/spec/list/0","value":{"a":[1,5e0]}},{"op":"replace","path":"/spec/list/2","value":2.5}]'),
      new Map([['.spec.list[0].a[1]', '5e0'], ['.spec.list[2]', '2.5']]),
    );
    // Moved and copied.
    assert.deepEqual(
      places(doc, '[{"op":"add","path":"/x","value":1.0},{"op":"copy","from":"/x","path":"/spec/replicas"},{"op":"move","from":"/x","path":"/spec/list/-"}]'),
      new Map([['.spec.replicas', '1.0'], ['.spec.list[2]', '1.0']]),
    );
  });

  it('forgets a literal a later operation replaces or removes; test values and plain numbers are none', () => {
    assert.equal(places(doc, '[{"op":"replace","path":"/spec/replicas","value":2.0},{"op":"replace","path":"/spec/replicas","value":2}]'), undefined);
    assert.equal(places(doc, '[{"op":"add","path":"/x","value":1.0},{"op":"remove","path":"/x"}]'), undefined);
    assert.equal(places(doc, '[{"op":"test","path":"/spec/replicas","value":1.0},{"op":"replace","path":"/spec/replicas","value":3}]'), undefined);
    assert.equal(places(doc, '[{"op":"replace","path":"/spec/replicas","value":3}]'), undefined);
  });

  it('a marker cannot be forged (its key holds a nonce made for each patch)', () => {
    const forged = '[{"op":"add","path":"/x","value":{"\\u0000kgen:number-literal":0}},{"op":"replace","path":"/spec/replicas","value":2.0}]';
    assert.deepEqual(places(doc, forged), new Map([['.spec.replicas', '2.0']]));
    const alone = '[{"op":"add","path":"/x","value":{"\\u0000kgen:number-literal":0}},{"op":"add","path":"/y","value":"1.0,"}]';
    assert.equal(places(doc, alone), undefined);
  });

  it('does not change the document', () => {
    const before = structuredClone(doc);
    places(doc, '[{"op":"replace","path":"/spec/replicas","value":2.0}]');
    assert.deepEqual(doc, before);
  });
});
