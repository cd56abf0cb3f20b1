/** Table cells as kube's customresource tableconvertor computes them (cellForJSONValue). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDefinition } from '../../runtime/api/resource.js';
import { cellForJSONValue, convertToTable } from '../../runtime/endpoints/tableconvertor.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

describe('table cells', () => {
  it('keeps a value only when it has the column type', () => {
    assert.equal(cellForJSONValue('integer', 3, NOW), 3);
    assert.equal(cellForJSONValue('integer', 2.7, NOW), 2, 'an integer column truncates a float');
    assert.equal(cellForJSONValue('integer', '3', NOW), null);
    assert.equal(cellForJSONValue('number', 2.5, NOW), 2.5);
    assert.equal(cellForJSONValue('number', 'x', NOW), null);
    assert.equal(cellForJSONValue('boolean', true, NOW), true);
    assert.equal(cellForJSONValue('boolean', 'true', NOW), null);
    assert.equal(cellForJSONValue('string', 'blue', NOW), 'blue');
    assert.equal(cellForJSONValue('string', 5, NOW), '5', 'a string column prints any value');
    assert.equal(cellForJSONValue('string', { a: 1 }, NOW), '{"a":1}');
    assert.equal(cellForJSONValue('string', ['a', 'b'], NOW), '["a","b"]');
    assert.equal(cellForJSONValue('string', null, NOW), null);
  });

  it('formats dates as ages and marks unparsable ones <invalid>', () => {
    assert.equal(cellForJSONValue('date', '2026-01-01T00:05:00Z', NOW), '5m');
    assert.equal(cellForJSONValue('date', '2026-01-01T01:05:00+01:00', NOW), '5m');
    assert.equal(cellForJSONValue('date', '2026-01-01', NOW), '<invalid>');
    assert.equal(cellForJSONValue('date', 'yesterday', NOW), '<invalid>');
    assert.equal(cellForJSONValue('date', 42, NOW), null);
  });

  it('builds rows with Name, the declared columns and Age', () => {
    const def = {
      printerColumns: [
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 0 },
        { name: 'Ready', type: 'boolean', jsonPath: '.status.ready', priority: 1 },
      ],
    } as unknown as ResourceDefinition;
    const obj = {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { replicas: '3' },
      status: { ready: true },
    };
    const table = convertToTable(def, [obj], { resourceVersion: '7' }, { includeObject: 'None', now: NOW });
    assert.deepEqual(table.columnDefinitions!.map((c) => [c.name, c.priority]), [
      ['Name', 0],
      ['Replicas', 0],
      ['Ready', 1],
      ['Age', 0],
    ]);
    assert.deepEqual(table.rows, [{ cells: ['a', null, true, '10m'] }]);
  });
});
