import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { StatusError } from '../../runtime/api/status.js';
import { parseFieldSelector } from '../../runtime/registry/fieldselector.js';
import { parseLabelSelector } from '../../runtime/api/labels.js';

function badRequest(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    assert.match(err.message, message);
    return true;
  });
}

describe('label selectors', () => {
  const labels = { app: 'web', tier: 'front', version: '3' };

  it('parses every operator of kube\'s syntax', () => {
    const cases: [string, boolean][] = [
      ['', true],
      ['app=web', true],
      ['app==web', true],
      ['app!=web', false],
      ['app!=db', true],
      ['missing!=x', true],
      ['app in (web,db)', true],
      ['app in (db)', false],
      ['app notin (db, cache)', true],
      ['app notin (web)', false],
      ['app', true],
      ['!app', false],
      ['!missing', true],
      ['version>2', true],
      ['version<2', false],
      ['app=web,tier=front', true],
      ['app=web, tier=back', false],
      ['  app = web ', true],
      ['app=', false],
      ['example.com/role in (x)', false],
    ];
    for (const [selector, expected] of cases) {
      assert.equal(parseLabelSelector(selector).matches(labels), expected, selector);
    }
  });

  it('matches missing labels like kube: notin and != pass, in and = fail', () => {
    assert.equal(parseLabelSelector('x notin (a)').matches(undefined), true);
    assert.equal(parseLabelSelector('x in (a)').matches(undefined), false);
  });

  it('rejects malformed selectors with 400 and kube\'s wording', () => {
    badRequest(() => parseLabelSelector('app in (web'), /^unable to parse requirement: found '', expected: ',' or '\)'$/);
    badRequest(() => parseLabelSelector('app in web'), /^unable to parse requirement: found 'web' expected: '\('$/);
    badRequest(() => parseLabelSelector('app=web,'), /^found '', expected: identifier after ','$/);
    badRequest(() => parseLabelSelector('app ~ web'), /^unable to parse requirement: found '~', expected: in, notin, =, ==, !=, gt, lt$/);
    badRequest(() => parseLabelSelector('a b'), /found 'b', expected: in, notin, =, ==, !=, gt, lt/);
    badRequest(() => parseLabelSelector('-app=x'), /^unable to parse requirement: <nil>: Invalid value: "-app": name part must consist of alphanumeric/);
    badRequest(() => parseLabelSelector('app=a b'), /^found 'b', expected: ',' or 'end of string'$/);
    badRequest(() => parseLabelSelector('app=-bad-'), /^unable to parse requirement: values\[0\]: Invalid value: "-bad-": a valid label must be/);
    badRequest(() => parseLabelSelector('version>x'), /^unable to parse requirement: values\[0\]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer$/);
  });

  it('words errors between requirements without the requirement prefix, as labels.Parse does', () => {
    badRequest(() => parseLabelSelector('a=b=c'), /^found '=', expected: ',' or 'end of string'$/);
    badRequest(() => parseLabelSelector('=a'), /^found '=', expected: !, identifier, or 'end of string'$/);
    badRequest(() => parseLabelSelector(',a'), /^found ',', expected: !, identifier, or 'end of string'$/);
    badRequest(() => parseLabelSelector('a,,b'), /^found ',', expected: identifier after ','$/);
    badRequest(() => parseLabelSelector('!,a'), /^unable to parse requirement: found ',', expected: identifier$/);
    badRequest(() => parseLabelSelector('a===c'), /^unable to parse requirement: found '=', expected: identifier$/);
    badRequest(() => parseLabelSelector('a in (=)'), /^unable to parse requirement: found '=', expected: ',', '\)' or identifier$/);
    badRequest(() => parseLabelSelector('a in (x,=)'), /^unable to parse requirement: found '=', expected: ',', or identifier$/);
    badRequest(() => parseLabelSelector('a/b/c'), /^unable to parse requirement: <nil>: Invalid value: "a\/b\/c": a qualified name must consist of/);
  });

  it('parses empty set members and in/notin as values', () => {
    const sel = parseLabelSelector('a in (,x), b notin (in), c>1, !d');
    assert.deepEqual(sel.requirements.map((r) => [r.key, r.operator, r.values]), [
      ['a', 'in', ['', 'x']],
      ['b', 'notin', ['in']],
      ['c', 'gt', ['1']],
      ['d', '!', []],
    ]);
    assert.equal(sel.matches({ a: '', b: 'x', c: '2' }), true);
    assert.equal(sel.matches({ a: 'x', c: '1' }), false);
    assert.equal(sel.matches({ a: 'y', c: '2' }), false);
    assert.equal(parseLabelSelector('a in ()').matches({ a: '' }), true);
    assert.equal(parseLabelSelector('a=').matches({ a: '' }), true);
    // Only space, tab, CR and LF separate tokens.
    assert.deepEqual(parseLabelSelector('a\t=\nb').requirements, [{ key: 'a', operator: '=', values: ['b'] }]);
  });
});

describe('field selectors', () => {
  const obj: KubeObject = { apiVersion: 'v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'ns1' }, spec: { color: 'red', replicas: 3 } };

  it('selects on metadata.name, metadata.namespace and declared selectable fields', () => {
    assert.equal(parseFieldSelector('metadata.name=w1').matches(obj), true);
    assert.equal(parseFieldSelector('metadata.name==w2').matches(obj), false);
    assert.equal(parseFieldSelector('metadata.name!=w2,metadata.namespace=ns1').matches(obj), true);
    assert.equal(parseFieldSelector('spec.color=red', ['.spec.color']).matches(obj), true);
    assert.equal(parseFieldSelector('spec.replicas=3', ['.spec.replicas']).matches(obj), true);
    assert.equal(parseFieldSelector('').empty(), true);
  });

  it('reports the name an exact match pins', () => {
    assert.equal(parseFieldSelector('metadata.name=w1').requiresExactMatch('metadata.name'), 'w1');
    assert.equal(parseFieldSelector('metadata.name!=w1').requiresExactMatch('metadata.name'), undefined);
  });

  it('unescapes values', () => {
    const o: KubeObject = { metadata: { name: 'a,b=c' } };
    assert.equal(parseFieldSelector('metadata.name=a\\,b\\=c').matches(o), true);
  });

  it('rejects unsupported fields and malformed terms with 400', () => {
    badRequest(() => parseFieldSelector('spec.color=red'), /^field label not supported: spec\.color$/);
    badRequest(() => parseFieldSelector('status.phase=x', ['.spec.color']), /^field label not supported: status\.phase$/);
    badRequest(() => parseFieldSelector('metadata.name'), /invalid selector: 'metadata.name'; can't understand 'metadata.name'/);
  });

  it('parses terms as fields.ParseSelector does: sorted, untrimmed, first operator splits, only \\ , = escape', () => {
    const o: KubeObject = { metadata: { name: 'a!b' } };
    assert.equal(parseFieldSelector('metadata.name=a!b').matches(o), true, 'a bare ! is an ordinary value character');
    assert.deepEqual(parseFieldSelector('metadata.name!=x').requirements, [{ field: 'metadata.name', operator: '!=', value: 'x' }]);
    badRequest(() => parseFieldSelector('metadata.name=a=b'), /^invalid field selector: unescaped character in value: 61$/);
    badRequest(() => parseFieldSelector('metadata.name=a\\!b'), /^invalid field selector: invalid escape sequence: \\!$/);
    badRequest(() => parseFieldSelector('metadata.name=a\\'), /^invalid field selector: invalid escape sequence: \\$/);
    badRequest(() => parseFieldSelector('metadata.name = w1'), /^field label not supported: metadata\.name $/);
    // Sorted before checking, so of two unsupported fields the first in sort order is reported.
    badRequest(() => parseFieldSelector('z.field=1,spec.a=2'), /^field label not supported: spec\.a$/);
    badRequest(() => parseFieldSelector('=x'), /^field label not supported: $/);
  });
});
