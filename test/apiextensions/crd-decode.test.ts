/**
 * A CustomResourceDefinition decodes into kube's Go types, JSONSchemaProps recursing: its int64
 * fields (maxLength, minLength, maxItems, minItems, maxProperties, minProperties) take `1.0` or
 * `1e3` nowhere in the schema (strconv.ParseInt judges the literal), its other typed fields their
 * JSON type only, while default, enum and example are any JSON. A nested schema is decoded by the
 * same decoder (properties, allOf, not: the error names `JSONSchemaProps.<path>`, map keys left
 * out) or, for items, additionalProperties, additionalItems and dependencies, by the type's own
 * UnmarshalJSON (apiextensions v1 marshal.go), whose error ends decoding and is named from the
 * field holding it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectBadRequest, startTestServer, type TestServer } from '../server/testserver.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const P = 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: ';
const AT = 'JSONSchemaProps.spec.versions.schema.openAPIV3Schema';

/** A CRD's JSON text whose openAPIV3Schema is `schema` (text, so that `1.0` is sent as written). */
const crdText = (schema: string, plural = 'things') =>
  `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"${plural}.example.com"},` +
  `"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"${plural}","singular":"${plural.slice(0, -1)}","kind":"${plural[0]!.toUpperCase()}${plural.slice(1, -1)}","listKind":"${plural[0]!.toUpperCase()}${plural.slice(1, -1)}List"},` +
  `"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":${schema}}}]}}`;

describe('a CustomResourceDefinition\'s schema decodes as Go\'s JSONSchemaProps', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  const refused = (schema: string, message: string) => expectBadRequest(t, 'POST', CRDS, `${P}${message}`, crdText(schema));

  it('an int64 field given a fraction or an exponent, at the root and in nested schemas', async () => {
    await refused('{"type":"object","maxProperties":1.0}', `json: cannot unmarshal number 1.0 into Go struct field ${AT}.maxProperties of type int64`);
    await refused('{"type":"object","properties":{"s":{"type":"string","maxLength":1e3}}}', `json: cannot unmarshal number 1e3 into Go struct field ${AT}.properties.maxLength of type int64`);
    await refused(
      '{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","minItems":2.0}}}}}',
      `json: cannot unmarshal number 2.0 into Go struct field ${AT}.properties.properties.minItems of type int64`,
    );
    await refused('{"type":"object","allOf":[{"minProperties":1.5}]}', `json: cannot unmarshal number 1.5 into Go struct field ${AT}.allOf.minProperties of type int64`);
    await refused('{"type":"object","not":{"minLength":-0.0}}', `json: cannot unmarshal number -0.0 into Go struct field ${AT}.not.minLength of type int64`);
    // Another typed field of a nested schema: its JSON type.
    await refused('{"type":"object","properties":{"s":{"type":1}}}', `json: cannot unmarshal number into Go struct field ${AT}.properties.type of type string`);
  });

  it('items, additionalProperties, dependencies: their own UnmarshalJSON, named from the field holding them', async () => {
    await refused(
      '{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","maxLength":1.0}}}}',
      `json: cannot unmarshal number 1.0 into Go struct field ${AT}.properties.items of type int64`,
    );
    // Deeper below items: still named from the outermost items.
    await refused(
      '{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string","minLength":1e0}}}}}}',
      `json: cannot unmarshal number 1e0 into Go struct field ${AT}.properties.items of type int64`,
    );
    await refused('{"type":"object","properties":{"l":{"type":"array","items":["x"]}}}', `json: cannot unmarshal string into Go struct field ${AT}.properties.items of type v1.JSONSchemaProps`);
    await refused(
      '{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string","maxLength":2.5}}}}',
      `json: cannot unmarshal number 2.5 into Go struct field ${AT}.properties.additionalProperties of type int64`,
    );
    await refused('{"type":"object","additionalProperties":5}', 'boolean or JSON schema expected');
    await refused('{"type":"object","dependencies":{"a":["b",1]}}', `json: cannot unmarshal number into Go struct field ${AT}.dependencies of type string`);
    // Such an error ends decoding: it wins over an earlier remembered one.
    await refused(
      '{"type":"object","maxProperties":1.0,"properties":{"l":{"type":"array","items":{"type":"string","maxLength":1.0}}}}',
      `json: cannot unmarshal number 1.0 into Go struct field ${AT}.properties.items of type int64`,
    );
  });

  it('default, enum and example are any JSON; number fields take fractions; whole int64 literals decode', async () => {
    const schema =
      '{"type":"object","properties":{"n":{"type":"number","maximum":2.5,"minimum":1.0,"multipleOf":0.5,"default":1.0,"enum":[1.0,1.5e0,2.5],"example":{"a":1.0}},' +
      '"s":{"type":"string","maxLength":10,"minLength":1},"l":{"type":"array","maxItems":3,"items":{"type":"string"}}}}';
    const r = await t.request('POST', CRDS, { body: crdText(schema, 'valids') });
    assert.equal(r.status, 201, r.text);
  });
});
