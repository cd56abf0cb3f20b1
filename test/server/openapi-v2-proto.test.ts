/**
 * `/openapi/v2` as gnostic's protobuf Document: the bytes decode with gnostic's own
 * OpenAPIv2.proto (test/fixtures/gnostic, from github.com/google/gnostic-models) through
 * protobufjs, an independent decoder, into what gnostic's NewDocument makes of the JSON; ETag and
 * If-None-Match per representation; JSON for other Accept types; 406 for neither.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { parse } from 'yaml';
import { encodeOpenAPIV2 } from '../../runtime/server/openapi-v2-proto.js';
import { startTestServer, type TestServer } from './testserver.js';

const PB = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** kube-openapi's answer type: Go's mime parser refuses the `@` of the requested one. */
const PB_RESPONSE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const root = protobuf.loadSync(fileURLToPath(new URL('../fixtures/gnostic/OpenAPIv2.proto', import.meta.url)));
const Document = root.lookupType('openapi.v2.Document');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const decode = (bytes: Uint8Array): any => Document.toObject(Document.decode(bytes), { defaults: false, arrays: true, oneofs: true });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const vendor = (list: any[] | undefined, name: string) => parse(list?.find((e) => e.name === name)?.value?.yaml ?? 'null');

describe('OpenAPI v2 protobuf encoding', () => {
  it('maps schemas as gnostic does: type, items, properties, additionalProperties, $ref, extensions', () => {
    const bytes = encodeOpenAPIV2({
      swagger: '2.0',
      info: { title: 'Kubernetes', version: 'v1.33' },
      paths: {},
      definitions: {
        'io.example.Widget': {
          description: 'A widget.',
          type: 'object',
          required: ['spec'],
          properties: {
            spec: { $ref: '#/definitions/io.example.Spec' },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 3, 'x-kubernetes-list-type': 'set' },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            closed: { type: 'object', additionalProperties: false },
            size: { type: 'integer', format: 'int64', minimum: 1, maximum: 10.5, default: 2, enum: [2, 4] },
          },
          'x-kubernetes-group-version-kind': [{ group: 'example.io', kind: 'Widget', version: 'v1' }],
        },
      },
    });
    const doc = decode(bytes);
    assert.equal(doc.swagger, '2.0');
    assert.deepEqual([doc.info.title, doc.info.version], ['Kubernetes', 'v1.33']);
    const [def] = doc.definitions.additionalProperties;
    assert.equal(def.name, 'io.example.Widget');
    const s = def.value;
    assert.deepEqual([s.description, s.type.value, s.required], ['A widget.', ['object'], ['spec']]);
    assert.deepEqual(vendor(s.vendorExtension, 'x-kubernetes-group-version-kind'), [{ group: 'example.io', kind: 'Widget', version: 'v1' }]);
    const props = Object.fromEntries(s.properties.additionalProperties.map((p: { name: string; value: unknown }) => [p.name, p.value]));
    assert.deepEqual(Object.keys(props), ['spec', 'tags', 'labels', 'closed', 'size'], 'key order is kept');
    assert.equal(props.spec._ref, '#/definitions/io.example.Spec');
    assert.deepEqual(props.tags.items.schema[0].type.value, ['string']);
    assert.equal(Number(props.tags.maxItems), 3);
    assert.equal(vendor(props.tags.vendorExtension, 'x-kubernetes-list-type'), 'set');
    assert.equal(props.labels.additionalProperties.oneof, 'schema');
    assert.deepEqual(props.labels.additionalProperties.schema.type.value, ['string']);
    assert.deepEqual(props.closed.additionalProperties, { boolean: false, oneof: 'boolean' }, 'a false oneof member is written');
    assert.deepEqual([props.size.format, props.size.minimum, props.size.maximum], ['int64', 1, 10.5]);
    assert.equal(parse(props.size.default.yaml), 2);
    assert.deepEqual(props.size.enum.map((e: { yaml: string }) => parse(e.yaml)), [2, 4]);
  });

  it('maps operations: body, query and path parameters, $ref parameters, responses, GVK extension', () => {
    const doc = decode(
      encodeOpenAPIV2({
        swagger: '2.0',
        info: { title: 'Kubernetes', version: 'unversioned' },
        paths: {
          '/apis/example.io/v1/widgets/{name}': {
            parameters: [{ name: 'name', in: 'path', required: true, type: 'string', uniqueItems: true }, { $ref: '#/parameters/pretty' }],
            patch: {
              consumes: ['application/json-patch+json', 'application/merge-patch+json'],
              produces: ['application/json'],
              operationId: 'patchWidget',
              parameters: [
                { name: 'body', in: 'body', required: true, schema: { type: 'object' } },
                { name: 'fieldValidation', in: 'query', type: 'string', uniqueItems: true, description: 'how to validate' },
              ],
              responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/io.example.Widget' } }, '401': { description: 'Unauthorized' } },
              'x-kubernetes-action': 'patch',
              'x-kubernetes-group-version-kind': { group: 'example.io', version: 'v1', kind: 'Widget' },
            },
          },
        },
        definitions: {},
      }),
    );
    const [path] = doc.paths.path;
    assert.equal(path.name, '/apis/example.io/v1/widgets/{name}');
    const item = path.value;
    const pathParam = item.parameters[0].parameter.nonBodyParameter.pathParameterSubSchema;
    assert.deepEqual([pathParam.name, pathParam.in, pathParam.required, pathParam.type, pathParam.uniqueItems], ['name', 'path', true, 'string', true]);
    assert.equal(item.parameters[1].jsonReference._ref, '#/parameters/pretty');
    const op = item.patch;
    assert.equal(op.operationId, 'patchWidget');
    assert.deepEqual(op.consumes, ['application/json-patch+json', 'application/merge-patch+json']);
    assert.equal(op.parameters[0].parameter.bodyParameter.name, 'body');
    assert.deepEqual(op.parameters[0].parameter.bodyParameter.schema.type.value, ['object']);
    const query = op.parameters[1].parameter.nonBodyParameter.queryParameterSubSchema;
    assert.deepEqual([query.name, query.in, query.type, query.description], ['fieldValidation', 'query', 'string', 'how to validate']);
    const codes = op.responses.responseCode;
    assert.deepEqual(codes.map((c: { name: string }) => c.name), ['200', '401']);
    assert.equal(codes[0].value.response.schema.schema._ref, '#/definitions/io.example.Widget');
    assert.deepEqual(vendor(op.vendorExtension, 'x-kubernetes-group-version-kind'), { group: 'example.io', version: 'v1', kind: 'Widget' });
    assert.equal(vendor(op.vendorExtension, 'x-kubernetes-action'), 'patch');
  });
});

describe('/openapi/v2 content negotiation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const get = (accept: string, headers: Record<string, string> = {}) => t.fetch(`${t.url}/openapi/v2`, { headers: { accept, ...headers } });

  it('answers protobuf with the whole served document, and JSON to JSON clients', async () => {
    const json = await (await get('application/json')).json();
    const res = await get(PB);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), PB_RESPONSE);
    const doc = decode(new Uint8Array(await res.arrayBuffer()));
    assert.equal(doc.swagger, '2.0');
    assert.deepEqual(
      doc.paths.path.map((p: { name: string }) => p.name),
      Object.keys(json.paths),
    );
    assert.deepEqual(
      doc.definitions.additionalProperties.map((d: { name: string }) => d.name),
      Object.keys(json.definitions),
    );
    const widgetDef = doc.definitions.additionalProperties.find((d: { name: string }) => /widgets.*v1\.Widget$/.test(d.name));
    assert.ok(widgetDef, 'the Widget definition is there');
    assert.deepEqual(vendor(widgetDef.value.vendorExtension, 'x-kubernetes-group-version-kind'), [{ group: 'widgets.example.com', kind: 'Widget', version: 'v1' }]);
  });

  it('takes the first acceptable type in the client order; 406 when none is', async () => {
    assert.equal((await get(`${PB},application/json`)).headers.get('content-type'), PB_RESPONSE);
    assert.match((await get(`application/json,${PB}`)).headers.get('content-type')!, /^application\/json/);
    assert.match((await get('*/*')).headers.get('content-type')!, /^application\/json/);
    const refused = await get('text/html');
    assert.equal(refused.status, 406);
    assert.equal((await refused.json()).kind, 'Status');
  });

  it('has an ETag per representation and answers 304 to If-None-Match', async () => {
    const pb = await get(PB);
    const json = await get('application/json');
    const pbTag = pb.headers.get('etag')!;
    const jsonTag = json.headers.get('etag')!;
    assert.match(pbTag, /^"[0-9A-F]{128}"$/);
    assert.notEqual(pbTag, jsonTag);
    const cached = await get(PB, { 'if-none-match': pbTag });
    assert.equal(cached.status, 304);
    assert.equal((await cached.arrayBuffer()).byteLength, 0);
    assert.equal((await get(PB, { 'if-none-match': jsonTag })).status, 200, 'the JSON ETag does not match the protobuf');
    assert.equal((await get('application/json', { 'if-none-match': jsonTag })).status, 304);
  });
});
