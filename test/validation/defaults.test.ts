/** Defaulting: the one-walk prune-and-default gives what the two passes give. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SchemaCompiler } from '../../runtime/validation/compile.js';
import { applyDefaultsTo, pruneNonNullableNullsWithoutDefaults, pruneNullsAndApplyDefaults } from '../../runtime/validation/defaults.js';
import { finalizeNodes } from '../../runtime/validation/finalize.js';

const SCHEMAS = {
  Root: {
    type: 'object',
    properties: {
      a: { type: 'string', default: 'A' },
      b: { type: 'string' },
      n: { type: 'string', nullable: true, default: 'N' },
      o: { type: 'object', default: { x: null, y: 1 }, properties: { x: { type: 'string', default: 'X' }, y: { type: 'integer' }, z: { type: 'integer', default: 3 } } },
      list: { type: 'array', items: { type: 'object', default: { d: 1 }, properties: { d: { type: 'integer' }, e: { type: 'string', default: 'E' }, f: { type: 'string' } } } },
      plain: { type: 'array', items: { type: 'string' } },
      map: { type: 'object', additionalProperties: { type: 'object', default: { k: 'v' }, properties: { k: { type: 'string' }, q: { type: 'string', default: 'Q' } } } },
      self: { $ref: '#/components/schemas/Root' },
      constructor: { type: 'string', default: 'C' },
    },
  },
};

function compileRoot() {
  const compiler = new SchemaCompiler(SCHEMAS as never);
  const root = compiler.compileNamed('Root');
  finalizeNodes(compiler.nodes, undefined);
  return root;
}

describe('defaulting', () => {
  it('prunes and defaults in one walk as the two passes do', () => {
    const root = compileRoot();
    const values: unknown[] = [
      {},
      { a: null, b: null, n: null, o: null, list: null, plain: null, map: null, self: null },
      { b: 'x', o: {}, list: [null, {}, { d: null, e: null, f: null }], plain: ['p', null], map: { m1: null, m2: {}, m3: { k: null } } },
      { self: { self: { a: null, o: { x: null, z: null }, list: [{}] } }, extra: null, o: { y: null } },
      { map: { constructor: null }, list: [], plain: [] },
      'scalar',
      [1, 2],
    ];
    for (const value of values) {
      const twoPass = structuredClone(value);
      pruneNonNullableNullsWithoutDefaults(twoPass, root);
      applyDefaultsTo(twoPass, root);
      const oneWalk = structuredClone(value);
      pruneNullsAndApplyDefaults(oneWalk, root);
      assert.deepEqual(oneWalk, twoPass, JSON.stringify(value));
      assert.equal(JSON.stringify(oneWalk), JSON.stringify(twoPass));
    }
  });
});
