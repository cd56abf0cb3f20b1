import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  validateObjectMeta,
} from '../../runtime/validation/index.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QNAME_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('names', () => {
  it('isDNS1123Subdomain', () => {
    assert.deepEqual(isDNS1123Subdomain('example.com'), []);
    assert.deepEqual(isDNS1123Subdomain('a'), []);
    assert.deepEqual(isDNS1123Subdomain('Example.com'), [SUBDOMAIN_MSG]);
    assert.deepEqual(isDNS1123Subdomain('-a'), [SUBDOMAIN_MSG]);
    assert.deepEqual(isDNS1123Subdomain(''), [SUBDOMAIN_MSG]);
    assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
  });

  it('isDNS1123Label, with the dots special case', () => {
    assert.deepEqual(isDNS1123Label('my-name'), []);
    assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
    assert.deepEqual(isDNS1123Label('My_Name'), [LABEL_MSG]);
    assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
  });

  it('isQualifiedName', () => {
    assert.deepEqual(isQualifiedName('app'), []);
    assert.deepEqual(isQualifiedName('example.com/My.Name_1'), []);
    assert.deepEqual(isQualifiedName('bad key'), [QNAME_NAME_MSG]);
    assert.deepEqual(isQualifiedName('/x'), ['prefix part must be non-empty']);
    assert.deepEqual(isQualifiedName('Ex.com/x'), [`prefix part ${SUBDOMAIN_MSG}`]);
    assert.deepEqual(isQualifiedName('x/'), ['name part must be non-empty', QNAME_NAME_MSG]);
    assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
    assert.equal(isQualifiedName('a/b/c').length, 1);
    assert.match(isQualifiedName('a/b/c')[0]!, /^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
  });

  it('isValidLabelValue', () => {
    assert.deepEqual(isValidLabelValue(''), []);
    assert.deepEqual(isValidLabelValue('v1.2_x-y'), []);
    assert.deepEqual(isValidLabelValue('-x'), [LABEL_VALUE_MSG]);
    assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
  });
});

describe('validateObjectMeta', () => {
  const msgs = (meta: unknown, namespaced: boolean, nameValidation?: 'DNS1123Subdomain' | 'DNS1123Label') =>
    validateObjectMeta(meta, { namespaced, nameValidation }).map((e) => `${e.type} ${e.field}: ${e.message}`);

  it('accepts a plain valid object', () => {
    assert.deepEqual(msgs({ name: 'demo', namespace: 'default', labels: { app: 'x' }, annotations: { 'a.io/b': 'c' } }, true), []);
  });

  it('requires a name unless generateName is set, and checks both', () => {
    assert.deepEqual(msgs({}, false), ['FieldValueRequired metadata.name: Required value: name or generateName is required']);
    assert.deepEqual(msgs({ generateName: 'web-' }, false), []);
    assert.deepEqual(msgs({ generateName: 'Web-' }, false), [
      `FieldValueInvalid metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_MSG}`,
    ]);
    assert.deepEqual(msgs({ name: 'Bad_Name' }, false), [`FieldValueInvalid metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`]);
    assert.deepEqual(msgs({ name: 'a.b' }, false, 'DNS1123Label'), ['FieldValueInvalid metadata.name: Invalid value: "a.b": must not contain dots']);
  });

  it('namespace: required iff namespaced, forbidden otherwise', () => {
    assert.deepEqual(msgs({ name: 'a' }, true), ['FieldValueRequired metadata.namespace: Required value']);
    assert.deepEqual(msgs({ name: 'a', namespace: 'default' }, false), [
      'FieldValueForbidden metadata.namespace: Forbidden: not allowed on this type',
    ]);
    assert.deepEqual(msgs({ name: 'a', namespace: 'a.b' }, true), ['FieldValueInvalid metadata.namespace: Invalid value: "a.b": must not contain dots']);
  });

  it('labels, annotations (case-insensitive keys, 256 KiB total) and generation', () => {
    assert.deepEqual(msgs({ name: 'a', labels: { 'bad key': '-v' }, generation: -1 }, false), [
      'FieldValueInvalid metadata.generation: Invalid value: -1: must be greater than or equal to 0',
      `FieldValueInvalid metadata.labels: Invalid value: "bad key": ${QNAME_NAME_MSG}`,
      `FieldValueInvalid metadata.labels: Invalid value: "-v": ${LABEL_VALUE_MSG}`,
    ]);
    assert.deepEqual(msgs({ name: 'a', annotations: { 'Example.com/Key': 'x' } }, false), []);
    assert.deepEqual(msgs({ name: 'a', annotations: { big: 'x'.repeat(256 * 1024) } }, false), [
      'FieldValueTooLong metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
  });

  it('finalizers are qualified names; orphan and foregroundDeletion exclude each other', () => {
    assert.deepEqual(msgs({ name: 'a', finalizers: ['example.com/cleanup', 'kubernetes'] }, false), []);
    assert.deepEqual(msgs({ name: 'a', finalizers: ['bad finalizer'] }, false), [
      `FieldValueInvalid metadata.finalizers: Invalid value: "bad finalizer": ${QNAME_NAME_MSG}`,
    ]);
    assert.deepEqual(msgs({ name: 'a', finalizers: ['orphan', 'foregroundDeletion'] }, false), [
      'FieldValueInvalid metadata.finalizers: Invalid value: []interface {}{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });

  it('ownerReferences need apiVersion with a version, kind, name and uid; one controller', () => {
    const ok = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u1' };
    assert.deepEqual(msgs({ name: 'a', ownerReferences: [ok] }, false), []);
    assert.deepEqual(msgs({ name: 'a', ownerReferences: [{ apiVersion: 'apps/' }] }, false), [
      'FieldValueInvalid metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
      'FieldValueInvalid metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'FieldValueInvalid metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'FieldValueInvalid metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ]);
    const twoControllers = msgs({ name: 'a', ownerReferences: [{ ...ok, controller: true }, { ...ok, name: 'e', uid: 'u2', controller: true }] }, false);
    assert.equal(twoControllers.length, 1);
    assert.match(twoControllers[0]!, /Only one reference can have Controller set to true\. Found "true" in references for Deployment\/d and Deployment\/e$/);
  });

  it('managedFields operation and fieldsType', () => {
    assert.deepEqual(msgs({ name: 'a', managedFields: [{ manager: 'm', operation: 'Bogus', fieldsType: 'FieldsV2' }] }, false), [
      'FieldValueInvalid metadata.managedFields[0].operation: Invalid value: "Bogus": must be `Apply` or `Update`',
      'FieldValueInvalid metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
    ]);
  });

  it('a non-object metadata is one error', () => {
    assert.deepEqual(msgs('x', false), ['FieldValueInvalid metadata: Invalid value: "x": must be an object']);
  });
});
