/**
 * The CRD kind's own rules (ValidateCustomResourceDefinition and the schema rules), with kube's
 * field paths and messages, and the strategy's defaults and stored versions.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateCRD, validateCRDUpdate } from '../../runtime/apiextensions/validation.js';
import { applyCRDDefaults } from '../../runtime/apiextensions/strategy.js';
import type { CustomResourceDefinition } from '../../runtime/apiextensions/types.js';

function valid(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }],
    },
    status: { storedVersions: ['v1'] },
  };
}

const lines = (c: CustomResourceDefinition) => validateCRD(c).map((e) => `${e.field}: ${e.message}`);

describe('validateCRD', () => {
  it('accepts a valid CRD', () => {
    assert.deepEqual(lines(valid()), []);
  });

  it('requires the name to be <plural>.<group>', () => {
    const c = valid();
    c.metadata.name = 'wrong.stable.example.com';
    assert.deepEqual(lines(c), ['metadata.name: Invalid value: "wrong.stable.example.com": must be spec.names.plural+"."+spec.group']);
  });

  it('requires exactly one storage version and unique version names', () => {
    const c = valid();
    c.spec.versions.push({ ...c.spec.versions[0]! });
    const out = lines(c);
    assert.ok(out.some((l) => l.startsWith('spec.versions: Invalid value:') && l.endsWith('must contain unique version names')), out.join('\n'));
    assert.ok(out.some((l) => l.endsWith('must have exactly one version marked as storage version')), out.join('\n'));
  });

  it('requires a schema per version, and a scope of Cluster or Namespaced', () => {
    const c = valid();
    delete c.spec.versions[0]!.schema;
    c.spec.scope = 'Galaxy';
    assert.deepEqual(lines(c), [
      'spec.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced"',
      'spec.versions[0].schema.openAPIV3Schema: Required value',
    ]);
  });

  it('checks nested schemas structurally (type required, $ref unsupported, root object)', () => {
    const c = valid();
    c.spec.versions[0]!.schema = {
      openAPIV3Schema: { type: 'object', properties: { spec: { properties: { x: { type: 'string' } } }, list: { type: 'array' } } },
    };
    assert.deepEqual(lines(c), [
      'spec.versions[0].schema.openAPIV3Schema.properties[list].items: Required value: must be specified',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
    // A schema NewStructural cannot read ($ref) is not checked structurally: kube reports the field alone.
    c.spec.versions[0]!.schema = {
      openAPIV3Schema: { type: 'object', properties: { spec: { properties: { x: { $ref: '#/definitions/x' } } }, list: { type: 'array' } } },
    };
    assert.deepEqual(lines(c), ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[x].$ref: Forbidden: $ref is not supported']);
    // $schema: the field validator accepts it; NewStructural does not, and says so at the root.
    // (the built-in JSONSchemaProps type leaves $schema out, as a CRD may not use it: hence the cast)
    c.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' } as { type: 'object' } };
    assert.deepEqual(lines(c), [`spec.versions[0].schema.openAPIV3Schema: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`]);
    c.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'string' } };
    assert.deepEqual(lines(c), ['spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "string": must be object at the root']);
  });

  it('allows untyped int-or-string and preserve-unknown-fields nodes', () => {
    const c = valid();
    c.spec.versions[0]!.schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: { port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, raw: { 'x-kubernetes-preserve-unknown-fields': true } },
      },
    };
    assert.deepEqual(lines(c), []);
  });

  it('checks printer columns and the scale subresource', () => {
    const c = valid();
    c.spec.versions[0]!.additionalPrinterColumns = [{ name: 'X', type: 'text', jsonPath: 'spec.a' }];
    c.spec.versions[0]!.subresources = { scale: { specReplicasPath: '.status.r', statusReplicasPath: '.status.r' } };
    assert.deepEqual(lines(c), [
      'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.r": should be a json path under .spec',
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
      'spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.a": must be a simple json path starting with .',
    ]);
  });

  it('requires the storage version in status.storedVersions', () => {
    const c = valid();
    c.status = { storedVersions: ['v0'] };
    assert.deepEqual(lines(c), [
      'status.storedVersions: Invalid value: ["v0"]: must have the storage version v1',
      'status.storedVersions[0]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions',
    ]);
  });
});

describe('validateCRDUpdate', () => {
  it('keeps group and plural, and scope and kind once established', () => {
    const old = valid();
    old.status!.conditions = [{ type: 'Established', status: 'True' }];
    const next = valid();
    next.spec.scope = 'Cluster';
    next.spec.names.kind = 'Cron';
    const out = validateCRDUpdate(next, old).map((e) => `${e.field}: ${e.message}`);
    assert.deepEqual(out, ['spec.scope: Invalid value: "Cluster": field is immutable', 'spec.names.kind: Invalid value: "Cron": field is immutable']);
  });
});

describe('applyCRDDefaults', () => {
  it('defaults singular, listKind and the None conversion as kube does', () => {
    const c = valid();
    c.spec.names = { plural: 'crontabs', kind: 'CronTab' };
    applyCRDDefaults(c);
    assert.deepEqual(c.spec.names, { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', listKind: 'CronTabList' });
    assert.deepEqual(c.spec.conversion, { strategy: 'None' });
  });
});

describe('validateCRD: CEL cost limits and map/set list rules (kube 1.30+)', () => {
  const withSpec = (spec: Record<string, unknown>): CustomResourceDefinition => {
    const c = valid();
    c.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } };
    return c;
  };

  it('refuses a rule whose estimated cost is over the limit, with kube\'s path and message (the docs\' example)', () => {
    const c = withSpec({ foo: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a string'))" }] } });
    const errs = lines(c);
    assert.ok(
      errs.includes(
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[foo].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      ),
      errs.join('\n'),
    );
    assert.ok(errs.some((e) => e.startsWith('spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget')));
  });

  it('accepts the same rule once the list and its strings are bounded', () => {
    const c = withSpec({ foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a string'))" }] } });
    assert.deepEqual(lines(c), []);
  });

  it('refuses nullable items of set lists and nullable or optional keys of map lists', () => {
    const c = withSpec({
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } },
      parts: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string', nullable: true } } },
      },
    });
    assert.deepEqual(lines(c), [
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[parts].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[parts].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
    ]);
  });
});
