/**
 * Idiomatic TypeScript types (issue 22) through real kubectl: the fixture
 * test/fixtures/generator/idiomatic/ is generated, then served two ways: its CRDs applied with
 * `kubectl apply` to a running `kgen serve` (the path a real cluster takes), and its compiled
 * kinds served by `kgen serve <generated>`. Both accept valid objects and refuse invalid ones
 * with kube-apiserver's messages: a field of the wrong union member, the discriminator missing,
 * a value outside an enum, a required field of the chosen member missing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generate } from '../../generator/index.js';
import { tempDir as repoTempDir } from '../generator/helpers.js';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, type KgenServer } from './harness.js';

const APIS = join(REPO, 'test/fixtures/generator/idiomatic/apis');

const store = (name: string, spec: string) => `apiVersion: shop.example.com/v1
kind: Store
metadata:
  name: ${name}
spec:
${spec
  .trim()
  .split('\n')
  .map((l) => `  ${l}`)
  .join('\n')}
`;

const VALID = store(
  'corner',
  `
colour: red
stars: 2
level: 3
tags: [cheap, open-late]
labels: {area: north}
stock: {small: 1, large: 2}
payment: {kind: bank, iban: DE00123, reference: inv-7}
probe: {type: tcp, host: db, port: 5432}
deposit: {currency: EUR, amount: 500}
billing: {street: Main 1, city: Town, zip: "12345", country: DE}
`,
);

/**
 * A value outside an enum is a blocking error: kube then skips the CEL rules and says so
 * (apiextensions' hasBlockingErr), and kubectl lists both.
 */
const blocked = (name: string, error: string) =>
  `The Store "${name}" is invalid: \n* ${error}\n* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`;

/** Invalid stores and the message kubectl prints for each (kube-apiserver's wording). */
const INVALID: [string, string, string][] = [
  [
    'a field of another union member',
    store('wrong-member', 'colour: red\npayment: {kind: card, last4: "4242", iban: DE00123}'),
    'The Store "wrong-member" is invalid: spec.payment.iban: Forbidden: may only be set when kind is "bank"',
  ],
  [
    'the discriminator missing',
    store('no-tag', 'colour: red\nprobe: {host: db, port: 5432}'),
    'The Store "no-tag" is invalid: spec.probe.type: Required value',
  ],
  [
    'a required field of the chosen member missing',
    store('no-port', 'colour: red\nprobe: {type: tcp, host: db}'),
    'The Store "no-port" is invalid: spec.probe.port: Required value: must be set when type is "tcp"',
  ],
  [
    'a string enum value outside the enum',
    store('purple', 'colour: purple'),
    blocked('purple', 'spec.colour: Unsupported value: "purple": supported values: "red", "blue"'),
  ],
  [
    'a number outside a numeric literal union',
    store('level-9', 'colour: red\nlevel: 9'),
    blocked('level-9', 'spec.level: Unsupported value: 9: supported values: "1", "2", "3"'),
  ],
  [
    'an unknown discriminator value',
    store('udp', 'colour: red\nprobe: {type: udp, host: db, port: 53}'),
    blocked('udp', 'spec.probe.type: Unsupported value: "udp": supported values: "http", "tcp"'),
  ],
];

function checkServer(server: () => KgenServer): void {
  it('applies a valid object using every construct, and reads it back', () => {
    assert.equal(kubectlOk(server().kubeconfig, ['apply', '-f', '-'], VALID).trim(), 'store.shop.example.com/corner created');
    const got = JSON.parse(kubectlOk(server().kubeconfig, ['get', 'store', 'corner', '-o', 'json']));
    assert.deepEqual(got.spec.payment, { kind: 'bank', iban: 'DE00123', reference: 'inv-7' });
    assert.deepEqual(got.spec.probe, { type: 'tcp', host: 'db', port: 5432 });
    assert.deepEqual(got.spec.stock, { small: 1, large: 2 });
  });

  for (const [what, yaml, message] of INVALID) {
    it(`refuses ${what} with kube's message`, () => {
      const r = kubectl(server().kubeconfig, ['apply', '-f', '-'], yaml);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.stderr.trim(), message);
    });
  }
}

describe('kubectl and idiomatic TypeScript types', () => {
  const dir = repoTempDir('idiomatic-e2e');
  const generated = join(dir, 'generated');
  before(() => {
    const result = generate({ apisDir: APIS, outDir: generated });
    assert.equal(result.ok, true, result.diagnostics.map((d) => d.message).join('\n'));
  });
  after(() => removeDir(dir));

  describe('the generated CRDs, applied to a running server', () => {
    let server: KgenServer;
    before(async () => {
      server = await startKgen({ storage: 'memory:' });
      for (const crd of ['billing.example.com_invoices.yaml', 'shop.example.com_stores.yaml']) {
        kubectlOk(server.kubeconfig, ['apply', '-f', '-'], readFileSync(join(generated, 'crds', crd), 'utf8'));
      }
      kubectlOk(server.kubeconfig, ['wait', '--for=condition=Established', 'crd/stores.shop.example.com', '--timeout=60s']);
    });
    after(async () => {
      await server?.stop();
      if (server) removeDir(server.dataDir);
    });
    checkServer(() => server);
  });

  describe('the compiled kinds, served by kgen serve', () => {
    let server: KgenServer;
    before(async () => {
      server = await startKgen({ generatedDir: generated, storage: 'memory:' });
    });
    after(async () => {
      await server?.stop();
      if (server) removeDir(server.dataDir);
    });
    checkServer(() => server);
  });
});
