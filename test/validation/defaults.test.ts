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

  it('defaults a property named as an Object.prototype member, and copies a default holding "__proto__" as data', () => {
    const compiler = new SchemaCompiler({
      Root: {
        type: 'object',
        properties: {
          constructor: { type: 'string', default: 'C' },
          toString: { type: 'string', default: 'T' },
          labels: { type: 'object', additionalProperties: { type: 'string' }, default: JSON.parse('{"__proto__":"p","a":"b"}') },
        },
      },
    } as never);
    const root = compiler.compileNamed('Root');
    finalizeNodes(compiler.nodes, undefined);
    for (const walk of ['one', 'two'] as const) {
      const value: Record<string, unknown> = {};
      if (walk === 'one') pruneNullsAndApplyDefaults(value, root);
      else applyDefaultsTo(value, root);
      assert.equal(Object.hasOwn(value, 'constructor') && value.constructor, 'C', walk);
      assert.equal(Object.hasOwn(value, 'toString') && value.toString, 'T', walk);
      const labels = value.labels as Record<string, unknown>;
      assert.equal(Object.getPrototypeOf(labels), Object.prototype, `${walk}: the default's "__proto__" key is no prototype`);
      assert.deepEqual(Object.keys(labels), ['__proto__', 'a'], walk);
      assert.equal(JSON.stringify(value.labels), '{"__proto__":"p","a":"b"}', walk);
    }
  });
});
