import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { StatusError } from '../../runtime/api/status.js';
import { parseFieldSelector } from '../../runtime/registry/fieldselector.js';
import { parseLabelSelector } from '../../runtime/registry/labelselector.js';

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
    badRequest(() => parseLabelSelector('app in (web'), /^unable to parse requirement: found '', expected: ',' or '\)'/);
    badRequest(() => parseLabelSelector('app in web'), /unable to parse requirement: found 'web', expected: '\('/);
    badRequest(() => parseLabelSelector('app=web,'), /unable to parse requirement: found '', expected: !, identifier/);
    badRequest(() => parseLabelSelector('app ~ web'), /unable to parse requirement/);
    badRequest(() => parseLabelSelector('a b'), /found 'b', expected: in, notin, =, ==, !=, gt, lt/);
    badRequest(() => parseLabelSelector('-app=x'), /key: Invalid value: "-app": name part must consist of alphanumeric/);
    badRequest(() => parseLabelSelector('app=a b'), /found 'b', expected: ',' or 'end of string'/);
    badRequest(() => parseLabelSelector('app=-bad-'), /values\[0\]: Invalid value: "-bad-"/);
    badRequest(() => parseLabelSelector('version>x'), /must be an integer/);
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
});
