/**
 * Idiomatic TypeScript in the input language (issue 22): the fixture test/fixtures/generator/
 * idiomatic/ uses enums (string, numeric, const), readonly arrays and fields, index signatures,
 * Record<'a' | 'b', T>, numeric and boolean literal unions, discriminated unions, the utility
 * types, `T | undefined`, and a shared folder (apis/common/) imported by two groups. Its OpenAPI
 * v2/v3 and CRDs are checked here; the CRDs pass kgen's own CRD validation (the apiextensions
 * strategy's, exact to kube's) and the independent checker; the generated models narrow unions
 * under tsc. kubectl against these objects: test/e2e/idiomatic-kubectl.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { compile, generate } from '../../generator/index.js';
import type { ObjectSchema, Property } from '../../generator/model.js';
import { validateCRD } from '../../runtime/apiextensions/validation.js';
import type { CustomResourceDefinition } from '../../runtime/apiextensions/types.js';
import { checkCRD } from './crd-rules.js';
import { checkSwagger2, checkOpenAPIv3 } from './openapi-check.js';
import { REPO, fixtureApis, tempDir } from './helpers.js';

type Json = Record<string, any>;

const APIS = fixtureApis('idiomatic');
const result = compile({ apisDir: APIS, builtins: false });
const file = (path: string) => result.files.find((f) => f.path === path)?.content ?? assert.fail(`no ${path}`);
const v3 = (group: string) => JSON.parse(file(`openapi/v3/apis/${group}/v1.json`)) as Json;
const shop = () => v3('shop.example.com').components.schemas as Json;
const spec = () => shop()['com.example.shop.v1.StoreSpec'].properties as Json;

describe('idiomatic TypeScript: the fixture compiles', () => {
  test('without diagnostics, into two groups that import a shared folder', () => {
    assert.deepEqual(result.diagnostics.map((d) => `${d.code} ${d.message}`), []);
    assert.equal(result.ok, true);
    assert.deepEqual(result.model.groups.map((g) => g.name), ['billing.example.com', 'shop.example.com']);
  });

  test('the model keeps a discriminated union with its members and tags', () => {
    const store = result.model.groups[1]!.versions[0]!;
    const specType = store.types.find((t) => t.name === 'StoreSpec')!.schema as ObjectSchema;
    const payment = specType.properties.find((p: Property) => p.name === 'payment')!.schema as ObjectSchema;
    assert.equal(payment.union?.discriminator, 'kind');
    assert.deepEqual(payment.union?.members.map((m) => [m.tags, m.schema.type === 'ref' && m.schema.name]), [
      [['card'], 'CardPayment'],
      [['bank'], 'BankPayment'],
      [['cash'], 'CashPayment'],
    ]);
    // The shared union keeps its home: the folder it is declared in.
    const probe = specType.properties.find((p: Property) => p.name === 'probe')!.schema;
    assert.deepEqual(probe.type === 'ref' && [probe.name, probe.home], ['Target', { shared: 'common' }]);
  });
});

describe('idiomatic TypeScript: OpenAPI v3 schemas', () => {
  test('the documents are valid', () => {
    for (const group of ['shop.example.com', 'billing.example.com']) assert.deepEqual(checkOpenAPIv3(v3(group)), [], group);
    assert.deepEqual(checkSwagger2(JSON.parse(file('openapi/v2/swagger.json'))), []);
  });

  test('enums: string, numeric and const, with the doc comment on the schema', () => {
    assert.deepEqual(shop()['com.example.shop.v1.Colour'], { description: 'The colour of a shop front.', type: 'string', enum: ['red', 'blue'] });
    assert.deepEqual(shop()['com.example.shop.v1.Stars'], { description: 'How many stars a shop has.', type: 'integer', enum: [1, 2, 3] });
    const billing = v3('billing.example.com').components.schemas as Json;
    assert.deepEqual(billing['com.example.billing.v1.Urgency'], { description: 'How urgent a reminder is.', type: 'integer', enum: [1, 2, 3] });
    // An enum member as a type is a one-value enum.
    assert.deepEqual(spec().front, { type: 'string', enum: ['red'] });
  });

  test('readonly arrays, ReadonlyArray, readonly fields and `T | undefined` are their plain forms', () => {
    assert.deepEqual(spec().tags, { type: 'array', items: { type: 'string' } });
    assert.deepEqual(spec().owners, { type: 'array', items: { type: 'string' } });
    assert.deepEqual(spec().nickname, { type: 'string' });
    const required = shop()['com.example.shop.v1.StoreSpec'].required;
    assert.deepEqual(required, ['colour'], '`nickname?: string | undefined` is optional');
    const price = shop()['com.example.billing.v1.Price'];
    assert.deepEqual(price.required, ['amount'], '`label: string | undefined` on the wire is `label?: string`');
  });

  test('index signatures are maps; Record with literal keys is an object with those fields required', () => {
    assert.deepEqual(spec().labels, { type: 'object', additionalProperties: { type: 'string' } });
    assert.deepEqual(spec().stock, {
      type: 'object',
      required: ['small', 'large'],
      properties: { large: { type: 'integer', format: 'int32' }, small: { type: 'integer', format: 'int32' } },
    });
  });

  test('numeric and boolean literal unions are enums, integer or number as the literals are', () => {
    assert.deepEqual(spec().level, { type: 'integer', enum: [1, 2, 3] });
    assert.deepEqual(spec().ratio, { type: 'number', enum: [0.5, 1.5] });
    assert.deepEqual(spec().open, { type: 'boolean', enum: [true] });
  });

  test('utility types resolve to the fields they produce', () => {
    const s = spec();
    assert.equal(s.draft.required, undefined, 'Partial: every field optional');
    assert.deepEqual(Object.keys(s.draft.properties), ['city', 'country', 'street', 'zip']);
    assert.deepEqual(s.billing.required, ['street', 'city', 'zip', 'country'], 'Required: every field required');
    assert.deepEqual(s.city.required, ['city', 'zip'], 'Pick');
    assert.deepEqual(Object.keys(s.city.properties), ['city', 'zip']);
    assert.deepEqual(s.shipping.required, ['street', 'city', 'zip'], 'Omit');
    assert.equal(s.shipping.properties.country, undefined);
  });

  test('a discriminated union: every field, the tag a required enum, CEL rules, and a description naming the members', () => {
    const payment = spec().payment;
    assert.equal(payment.description, 'One of, chosen by kind: "card" (CardPayment), "bank" (BankPayment), "cash" (CashPayment).');
    assert.deepEqual(payment.required, ['kind']);
    assert.deepEqual(payment.properties.kind, { type: 'string', enum: ['card', 'bank', 'cash'] });
    assert.deepEqual(Object.keys(payment.properties).sort(), ['iban', 'kind', 'last4', 'reference']);
    assert.deepEqual(payment['x-kubernetes-validations'], [
      { rule: "!has(self.kind) || self.kind != 'card' || has(self.last4)", message: 'must be set when kind is "card"', reason: 'FieldValueRequired', fieldPath: '.last4' },
      { rule: "!has(self.last4) || !has(self.kind) || self.kind == 'card'", message: 'may only be set when kind is "card"', reason: 'FieldValueForbidden', fieldPath: '.last4' },
      { rule: "!has(self.kind) || self.kind != 'bank' || has(self.iban)", message: 'must be set when kind is "bank"', reason: 'FieldValueRequired', fieldPath: '.iban' },
      { rule: "!has(self.iban) || !has(self.kind) || self.kind == 'bank'", message: 'may only be set when kind is "bank"', reason: 'FieldValueForbidden', fieldPath: '.iban' },
      { rule: "!has(self.reference) || !has(self.kind) || self.kind == 'bank'", message: 'may only be set when kind is "bank"', reason: 'FieldValueForbidden', fieldPath: '.reference' },
    ]);
    // A named union keeps its own doc comment before the members.
    assert.equal(shop()['common.Target'].description, 'A probe target: HTTP or TCP, chosen by `type`.\n\nOne of, chosen by type: "http" (HttpTarget), "tcp" (TcpTarget).');
  });

  test('types are named after their home: a shared folder, or the group that declares them', () => {
    const names = Object.keys(shop()).filter((n) => !n.startsWith('io.k8s.'));
    assert.deepEqual(names.sort(), [
      'com.example.billing.v1.Price',
      'com.example.shop.v1.BankPayment',
      'com.example.shop.v1.CardPayment',
      'com.example.shop.v1.CashPayment',
      'com.example.shop.v1.Colour',
      'com.example.shop.v1.Stars',
      'com.example.shop.v1.Store',
      'com.example.shop.v1.StoreList',
      'com.example.shop.v1.StoreSpec',
      'common.Currency',
      'common.HttpTarget',
      'common.Money',
      'common.Target',
      'common.TcpTarget',
    ]);
    assert.deepEqual(spec().price, { $ref: '#/components/schemas/com.example.billing.v1.Price' });
    assert.deepEqual(spec().deposit, { $ref: '#/components/schemas/common.Money' });
    // The billing group names the shared Money the same way.
    assert.ok(v3('billing.example.com').components.schemas['common.Money']);
    const v2 = JSON.parse(file('openapi/v2/swagger.json')).definitions as Json;
    assert.deepEqual(v2['com.example.shop.v1.StoreSpec'].properties.price, { $ref: '#/definitions/com.example.billing.v1.Price' });
    assert.deepEqual(v2['common.Money'].required, ['currency', 'amount']);
  });
});

describe('idiomatic TypeScript: CRDs', () => {
  const crds = result.files.filter((f) => f.path.startsWith('crds/')).map((f) => [f.path, parse(f.content) as Json] as const);

  test('one CRD per kind, each passing kgen\'s CRD validation and the independent structural checks', () => {
    assert.deepEqual(crds.map(([p]) => p), ['crds/billing.example.com_invoices.yaml', 'crds/shop.example.com_stores.yaml']);
    for (const [path, crd] of crds) {
      // As the CRD strategy's PrepareForCreate does before validating: status holds the storage version.
      const created = { ...crd, status: { storedVersions: crd.spec.versions.filter((v: Json) => v.storage).map((v: Json) => v.name) } };
      assert.deepEqual(validateCRD(created as CustomResourceDefinition).map((e) => `${e.field}: ${e.message}`), [], path);
      assert.deepEqual(checkCRD(crd), [], path);
    }
  });

  test('the union is inlined with its rules; the shared enum keeps its values', () => {
    const store = crds[1]![1].spec.versions[0].schema.openAPIV3Schema.properties.spec.properties as Json;
    assert.deepEqual(store.probe.required, ['type']);
    assert.equal(store.probe['x-kubernetes-validations'].length, 7);
    assert.deepEqual(store.deposit.properties.currency, { description: 'An ISO 4217 currency code.', enum: ['EUR', 'USD'], type: 'string' });
  });
});

describe('idiomatic TypeScript: the generated models', () => {
  const dir = tempDir('idiomatic-tsc');
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('models keep enums as unions and discriminated unions as unions', () => {
    const model = file('models/shop.example.com/v1.ts');
    assert.match(model, /export type Colour = 'red' \| 'blue';/);
    assert.match(model, /export type Stars = 1 \| 2 \| 3;/);
    assert.match(model, /payment\?: CardPayment \| BankPayment \| CashPayment;/);
    assert.match(model, /export type Target = HttpTarget \| TcpTarget;/);
    assert.match(model, /stock\?: \{ small: int32; large: int32 \};/);
  });

  test('code narrows on the tag under tsc (a wrong member\'s field is a type error)', () => {
    assert.equal(generate({ apisDir: APIS, outDir: join(dir, 'generated'), builtins: false }).ok, true);
    writeFileSync(
      join(dir, 'narrowing.ts'),
      `import type { StoreSpec, Target } from './generated/models/shop.example.com/v1.js';

export function describePayment(spec: StoreSpec): string {
  const p = spec.payment;
  if (!p) return 'none';
  switch (p.kind) {
    case 'card':
      // @ts-expect-error iban belongs to BankPayment, not CardPayment
      void p.iban;
      return p.last4;
    case 'bank':
      return p.iban + (p.reference ?? '');
    case 'cash':
      return 'cash';
  }
}

export function port(t: Target): number {
  if (t.type === 'tcp') return t.port;
  // @ts-expect-error port belongs to TcpTarget
  return t.port;
}

const level: NonNullable<StoreSpec['level']> = 2;
// @ts-expect-error 4 is not a level
const wrong: NonNullable<StoreSpec['level']> = 4;
void level;
void wrong;
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
        files: ['narrowing.ts'],
      }),
    );
    const check = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 300_000 });
    assert.equal(check.status, 0, `tsc reported errors:\n${check.stdout}${check.stderr}`);
  });
});

describe('idiomatic TypeScript: smaller forms', () => {
  const dir = tempDir('idiomatic-forms');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const specOf = (body: string, extra = '') => {
    const apisDir = join(dir, `case-${Math.random().toString(36).slice(2)}`, 'apis');
    mkdirSync(join(apisDir, 'forms.example.com', 'v1'), { recursive: true });
    writeFileSync(join(apisDir, 'forms.example.com', 'v1', 'x.ts'), `/** @kgen:resource */\nexport interface Form {\n  spec: FormSpec;\n}\n\nexport interface FormSpec {\n${body}\n}\n${extra}`);
    const r = compile({ apisDir, builtins: false });
    assert.deepEqual(r.diagnostics.map((d) => `${d.code} ${d.message}`), []);
    const doc = JSON.parse(r.files.find((f) => f.path === 'openapi/v3/apis/forms.example.com/v1.json')!.content);
    return { schemas: doc.components.schemas as Json, props: doc.components.schemas['com.example.forms.v1.FormSpec'].properties as Json, files: r.files };
  };

  test('`true | false` is plain boolean; negative and auto-incremented enum members', () => {
    const { props, schemas } = specOf('  flag?: true | false;\n  temp?: Temp;', 'export enum Temp {\n  Cold = -1,\n  Mild,\n  Hot = 5,\n}\n');
    assert.deepEqual(props.flag, { type: 'boolean' });
    assert.deepEqual(schemas['com.example.forms.v1.Temp'], { type: 'integer', enum: [-1, 0, 5] });
  });

  test('an interface that is only an index signature is a map; Record keyed by a string enum', () => {
    const { schemas, props } = specOf('  labels?: Labels;\n  sizes?: Record<Size, string>;', "export interface Labels {\n  [key: string]: string;\n}\n\nexport enum Size {\n  S = 's',\n  L = 'l',\n}\n");
    assert.deepEqual(schemas['com.example.forms.v1.Labels'], { type: 'object', additionalProperties: { type: 'string' } });
    assert.deepEqual(props.sizes.required, ['s', 'l']);
  });

  test('keyof an interface as keys: Record<keyof T, V> and Omit<A, keyof B>', () => {
    const { props } = specOf(
      '  limits?: Record<keyof Limits, number>;\n  rest?: Omit<Full, keyof Limits>;',
      'export interface Limits {\n  cpu: number;\n  memory?: number;\n}\n\nexport interface Full {\n  cpu: number;\n  memory: number;\n  disk: number;\n}\n',
    );
    assert.deepEqual(props.limits.required, ['cpu', 'memory']);
    assert.deepEqual(Object.keys(props.rest.properties), ['disk']);
  });

  test('a union of inline object types with enum-member tags, a member with two tags', () => {
    const { props, files } = specOf(
      '  shape?: { kind: Kind.Circle; radius: number } | { kind: Kind.Square | Kind.Box; side: number };',
      "export enum Kind {\n  Circle = 'circle',\n  Square = 'square',\n  Box = 'box',\n}\n",
    );
    assert.deepEqual(props.shape.properties.kind, { type: 'string', enum: ['circle', 'square', 'box'] });
    assert.equal(props.shape.description, 'One of, chosen by kind: "circle", "square" or "box".');
    assert.deepEqual(
      props.shape['x-kubernetes-validations'].map((r: Json) => r.rule),
      [
        "!has(self.kind) || self.kind != 'circle' || has(self.radius)",
        "!has(self.radius) || !has(self.kind) || self.kind == 'circle'",
        "!has(self.kind) || !(self.kind in ['square', 'box']) || has(self.side)",
        "!has(self.side) || !has(self.kind) || self.kind in ['square', 'box']",
      ],
    );
    const model = files.find((f) => f.path === 'models/forms.example.com/v1.ts')!.content;
    assert.match(model, /shape\?: \{ kind: 'circle'; radius: number \} \| \{ kind: 'square' \| 'box'; side: number \};/);
  });
});
