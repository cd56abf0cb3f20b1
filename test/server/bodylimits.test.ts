/**
 * Body limits: 3 MiB (413), nesting depth (400) for JSON, YAML flow and block style, and YAML
 * alias bombs (400), checked at the server and in the helpers on their own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exceedsNestingDepth, MAX_NESTING_DEPTH, valueExceedsNestingDepth } from '../../runtime/api/nesting.js';
import { startTestServer, widget, WIDGETS, type TestServer } from './testserver.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nesting depth', () => {
  it('scans raw bytes, ignoring brackets inside strings', () => {
    assert.equal(exceedsNestingDepth(Buffer.from(nested(MAX_NESTING_DEPTH))), false);
    assert.equal(exceedsNestingDepth(Buffer.from(nested(MAX_NESTING_DEPTH + 1))), true);
    assert.equal(exceedsNestingDepth(Buffer.from(`{"a":"${'['.repeat(2000)}\\"${'{'.repeat(2000)}"}`)), false);
    assert.equal(exceedsNestingDepth(Buffer.from('{"a":[1,2,{"b":[]}]}'), 4), false);
    assert.equal(exceedsNestingDepth(Buffer.from('{"a":[1,2,{"b":[]}]}'), 3), true);
  });

  it('walks decoded values without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    assert.equal(valueExceedsNestingDepth(deep), true);
    assert.equal(valueExceedsNestingDepth({ a: [{ b: {} }] }, 4), false);
    assert.equal(valueExceedsNestingDepth({ a: [{ b: {} }] }, 3), true);
    assert.equal(valueExceedsNestingDepth('scalar'), false);
  });
});

describe('request body limits at the server', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
    assert.equal((await t.request('POST', WIDGETS, { body: widget('w') })).status, 201);
  });
  after(() => t.close());

  const bad = async (method: string, path: string, body: string, contentType: string, code = 400) => {
    const r = await t.request(method, path, { body, contentType });
    assert.equal(r.status, code, r.text.slice(0, 300));
    assert.equal(r.body.kind, 'Status');
    return r.body.message as string;
  };

  it('refuses JSON nested too deeply with 400, on every write verb', async () => {
    const deep = JSON.stringify(widget('d')).replace('"replicas":1', `"replicas":1,"notes":${nested(100_000)}`);
    for (const [method, path, type] of [['POST', WIDGETS, 'application/json'], ['PUT', `${WIDGETS}/w`, 'application/json'], ['PATCH', `${WIDGETS}/w`, 'application/merge-patch+json'], ['PATCH', `${WIDGETS}/w?fieldManager=x`, 'application/apply-patch+yaml']] as const) {
      assert.match(await bad(method, path, deep, type), /nested deeper than the maximum depth of 500/);
    }
  });

  it('refuses YAML nested too deeply by indentation, and alias bombs, with 400', async () => {
    let yaml = 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: {name: y}\nspec:\n  a:\n';
    for (let i = 2; i < 600; i++) yaml += `${' '.repeat(i * 2)}a:\n`;
    assert.match(await bad('POST', WIDGETS, yaml, 'application/yaml'), /maximum depth|Maximum call stack/);
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    assert.match(await bad('PATCH', `${WIDGETS}/w?fieldManager=x`, bomb.join('\n'), 'application/apply-patch+yaml'), /alias/i);
  });

  it('refuses bodies over 3 MiB with 413', async () => {
    const message = await bad('POST', WIDGETS, 'x'.repeat(3 * 1024 * 1024 + 1), 'application/json', 413);
    assert.equal(message, 'Request entity too large: limit is 3145728');
  });

  it('accepts objects nested to a sane depth', async () => {
    let notes: unknown = 'leaf';
    for (let i = 0; i < 100; i++) notes = [notes];
    const r = await t.request('POST', WIDGETS, { body: widget('nested', { replicas: 1, notes }) });
    assert.notEqual(r.status, 400, r.text.slice(0, 200));
    assert.ok(r.status < 500);
  });
});
