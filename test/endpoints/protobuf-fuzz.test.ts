/**
 * The protobuf request decoder against hostile bytes (seeded, bounded: a few seconds). Valid
 * bodies of built-in kinds, written by kgen's encoder, are mutated the ways a broken or hostile
 * client would: truncated, bytes flipped, varints overflowing (ten or more continuation bytes),
 * lengths past the buffer, wrong wire types on known fields, unknown fields, groups nested a
 * million deep (no built-in message is recursive, so message nesting is bounded by the tables;
 * the JSON inside raw fields meets the nesting limit of api/nesting.ts). The contract (runtime/endpoints/
 * protobuf.ts): a JSON-form object, or a StatusError that is 400 BadRequest or 415
 * UnsupportedMediaType; nothing else thrown, no hang. Over HTTP: every answer a metav1.Status
 * (or the created object), never a 5xx, and the server still serves afterwards.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../runtime/api/status.js';
import { decodeKubernetesProtobuf } from '../../runtime/endpoints/protobuf.js';
import { encodeKubernetesProtobuf } from '../../runtime/endpoints/protobuf-encode.js';
import { registerBuiltinProtobuf } from '../support/protobuf-builtins.js';
import { startTestServer, type TestServer } from '../server/testserver.js';
import { random as prng } from '../security/fuzz-requests.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
const ITERATIONS = Number(process.env.FUZZ_COUNT ?? 3_000);
const PB = 'application/vnd.kubernetes.protobuf';

const meta = (name: string) => ({ name, namespace: 'default', labels: { app: 'web' }, annotations: { note: 'n' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u', controller: true }] });
const SEEDS: Record<string, unknown>[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('cm'), data: { a: '1', b: '2' }, binaryData: { blob: Buffer.from([0, 1, 2]).toString('base64') } },
  { apiVersion: 'v1', kind: 'Secret', metadata: meta('s'), type: 'Opaque', data: { password: Buffer.from('pw').toString('base64') }, immutable: true },
  { apiVersion: 'v1', kind: 'Service', metadata: meta('svc'), spec: { type: 'ClusterIP', selector: { app: 'x' }, ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 'web' }] } },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'cr' },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] }] },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('d'),
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      template: {
        metadata: { labels: { app: 'web' }, creationTimestamp: '2026-01-02T03:04:05Z' },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx',
              ports: [{ containerPort: 80 }],
              resources: { limits: { cpu: '500m' } },
              livenessProbe: { httpGet: { path: '/', port: 80 } },
              env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            },
          ],
          volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }],
        },
      },
    },
  },
];

/** A protobuf varint. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** The k8s envelope around raw bytes of apiVersion/kind. */
function envelope(apiVersion: string, kind: string, raw: number[] | Uint8Array): Buffer {
  const str = (field: number, s: string) => [(field << 3) | 2, ...varint(Buffer.byteLength(s)), ...Buffer.from(s)];
  const typeMeta = [...str(1, apiVersion), ...str(2, kind)];
  return Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, ...varint(typeMeta.length), ...typeMeta, 0x12, ...varint(raw.length), ...raw]);
}

function mutate(body: Buffer, rand: () => number): Buffer {
  const b = Buffer.from(body);
  const at = () => 4 + Math.floor(rand() * Math.max(1, b.length - 4));
  switch (Math.floor(rand() * 8)) {
    case 0: // truncated
      return b.subarray(0, at());
    case 1: {
      // bytes flipped
      const n = 1 + Math.floor(rand() * 4);
      for (let i = 0; i < n; i++) b[at()] = Math.floor(rand() * 256);
      return b;
    }
    case 2: {
      // a varint that never ends, or overflows 64 bits
      const i = at();
      return Buffer.concat([b.subarray(0, i), Buffer.alloc(10 + Math.floor(rand() * 20), 0xff), b.subarray(i)]);
    }
    case 3: {
      // a length past the buffer (or "negative": the 64-bit two's complement of -1)
      const i = at();
      const len = rand() < 0.5 ? [0xff, 0xff, 0xff, 0xff, 0x0f] : [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
      return Buffer.concat([b.subarray(0, i), Buffer.from([0x0a, ...len]), b.subarray(i)]);
    }
    case 4: {
      // a tag's wire type changed (0..7)
      const i = at();
      b[i] = (b[i]! & ~7) | Math.floor(rand() * 8);
      return b;
    }
    case 5: {
      // random bytes inserted
      const i = at();
      const junk = Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 16) }, () => Math.floor(rand() * 256)));
      return Buffer.concat([b.subarray(0, i), junk, b.subarray(i)]);
    }
    case 6: {
      // a slice duplicated (repeated fields, map entries, fields set twice)
      const i = at();
      const j = Math.min(b.length, i + 1 + Math.floor(rand() * 40));
      return Buffer.concat([b.subarray(0, j), b.subarray(i, j), b.subarray(j)]);
    }
    default:
      // two mutations
      return mutate(mutate(body, rand), rand);
  }
}

function assertContract(body: Uint8Array, label: string): void {
  let result: unknown;
  try {
    result = decodeKubernetesProtobuf(body);
  } catch (err) {
    assert.ok(err instanceof StatusError, `${label}: threw ${String(err)}`);
    assert.ok(err.code === 400 || err.code === 415, `${label}: ${err.code} ${err.message}`);
    assert.ok(err.status.reason === 'BadRequest' || err.status.reason === 'UnsupportedMediaType', `${label}: ${err.status.reason}`);
    return;
  }
  assert.equal(typeof result, 'object', label);
  // The decoded form is plain JSON data: no BigInt, function or cycle.
  JSON.stringify(result);
}

describe('protobuf decoder, hostile bytes', () => {
  let bodies: Buffer[];
  before(() => {
    registerBuiltinProtobuf();
    bodies = SEEDS.map((o) => {
      const b = encodeKubernetesProtobuf(o);
      assert.ok(b, `${o.kind as string} encodes`);
      assert.equal(typeof decodeKubernetesProtobuf(b), 'object');
      return b;
    });
  });

  it(`returns an object or a 400/415 StatusError for ${ITERATIONS} mutated bodies (seed ${SEED})`, () => {
    const rand = prng(SEED);
    const started = Date.now();
    for (let i = 0; i < ITERATIONS; i++) {
      const body = mutate(bodies[i % bodies.length]!, rand);
      assertContract(body, `#${i} (FUZZ_SEED=${SEED}) ${body.toString('hex').slice(0, 200)}`);
    }
    assert.ok(Date.now() - started < 60_000, 'the decoder is slow on mutated bodies');
  });

  it('answers pathological shapes with a 400, quickly', () => {
    const cases: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['magic only', Buffer.from([0x6b, 0x38, 0x73, 0x00])],
      ['wrong magic', Buffer.from('{"kind":"ConfigMap"}')],
      ['varint of 11 bytes as the first tag', Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), Buffer.alloc(10, 0x80), Buffer.from([0x01])])],
      // A million nested start-groups in an unknown field of a ConfigMap (skipped iteratively).
      ['groups nested a million deep', envelope('v1', 'ConfigMap', [...Buffer.alloc(1_000_000, (99 << 3) | 3)])],
      ['an end-group without a start', envelope('v1', 'ConfigMap', [(99 << 3) | 4])],
      ['field number 0', envelope('v1', 'ConfigMap', [0x02, 0x00])],
      ['wire type 6', envelope('v1', 'ConfigMap', [(1 << 3) | 6])],
      ['metadata as a varint', envelope('v1', 'ConfigMap', [(1 << 3) | 0, 0x01])],
      ['a length of 2^63', envelope('v1', 'ConfigMap', [(1 << 3) | 2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])],
      ['a time before year 1', envelope('v1', 'ConfigMap', [(1 << 3) | 2, 12, (8 << 3) | 2, 10, 0x08, ...[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]])],
      ['invalid JSON in a raw extension', envelope('v1', 'ConfigMap', [(1 << 3) | 2, 8, (17 << 3) | 2, 6, (7 << 3) | 2, 4, 0x0a, 2, 0x7b, 0x7b])],
      ['a kind without a table', envelope('example.com/v1', 'Nope', [])],
      ['a content encoding', Buffer.concat([envelope('v1', 'ConfigMap', []), Buffer.from([(3 << 3) | 2, 4, ...Buffer.from('gzip')])])],
    ];
    for (const [label, body] of cases) {
      const started = Date.now();
      assertContract(body, label);
      assert.ok(Date.now() - started < 5_000, `${label}: slow`);
    }
  });
});

describe('protobuf bodies over HTTP, hostile bytes', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('answers every mutated body with a Status (never 5xx) and keeps serving', async () => {
    registerBuiltinProtobuf();
    const rand = prng(SEED + 1);
    const targets: [Record<string, unknown>, string][] = [
      [SEEDS[0]!, '/api/v1/namespaces/default/configmaps'],
      [SEEDS[2]!, '/api/v1/namespaces/default/services'],
      [SEEDS[4]!, '/apis/apps/v1/namespaces/default/deployments'],
    ];
    for (let i = 0; i < 150; i++) {
      const [obj, path] = targets[i % targets.length]!;
      const body = mutate(encodeKubernetesProtobuf({ ...obj, metadata: { ...(obj.metadata as object), name: `f${i}` } })!, rand);
      const res = await t.fetch(t.url + path, { method: 'POST', headers: { 'content-type': PB, accept: 'application/json' }, body: new Uint8Array(body) });
      const text = await res.text();
      const label = `#${i} ${path} ${body.toString('hex').slice(0, 120)}: ${res.status} ${text.slice(0, 200)}`;
      assert.ok(res.status < 500, label);
      const parsed = JSON.parse(text);
      if (res.status >= 300) {
        assert.equal(parsed.kind, 'Status', label);
        assert.equal(parsed.code, res.status, label);
      }
    }
    const ok = await t.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' }, data: { a: 'b' } } });
    assert.equal(ok.status, 201, ok.text);
  });
});
