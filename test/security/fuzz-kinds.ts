/**
 * Hostile requests aimed at the API itself: every verb (get, list, watch, create, update, patch
 * json/merge/strategic/apply, delete, deletecollection) of every served kind, with bodies derived
 * from a real object of that kind and then broken (missing and wrongly typed fields, wrong
 * kind/apiVersion), malformed JSON, YAML and protobuf, bad and forged query parameters (continue
 * tokens, resourceVersions, selectors), path tricks, wrong content types, oversized and slow
 * bodies. Deterministic for a given PRNG (see fuzz-requests.ts's Fuzzer).
 */
import type { Fuzzer, FuzzRequest } from './fuzz-requests.js';

/** One served resource, from discovery. */
export interface KindInfo {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  subresources: string[];
  /** A real object of this kind (or a minimal stand-in), stripped of server-set metadata. */
  template: Record<string, unknown>;
}

export interface KindRequest extends FuzzRequest {
  /** Send the body in pieces with pauses (a slow client). */
  slow?: boolean;
  /** A watch: the answer streams; read it briefly. */
  watch?: boolean;
  /** Sent without the admin's client certificate. */
  anonymous?: boolean;
}

export const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch-json', 'patch-merge', 'patch-strategic', 'patch-apply', 'delete', 'deletecollection'] as const;
export type FuzzVerb = (typeof VERBS)[number];

const NAMESPACES = ['default', 'fz', 'kube-system', 'nope', 'UPPER', '', '%2e%2e', '..', 'a'.repeat(70)];

function base(k: KindInfo): string {
  return k.group === '' ? `/api/${k.version}` : `/apis/${k.group}/${k.version}`;
}

export function collectionPath(k: KindInfo, namespace = 'default'): string {
  return k.namespaced ? `${base(k)}/namespaces/${namespace}/${k.resource}` : `${base(k)}/${k.resource}`;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Continue tokens a client could forge: kube's {"v","rv","start"} shape with hostile values, and plain junk. */
function forgedContinue(f: Fuzzer, k: KindInfo): string {
  const rv = f.pick<unknown>([-1, 0, 1, 2, 999_999_999_999, 1e300, 'abc', null, '1', 1.5, [], {}]);
  const start = f.pick<unknown>(['', '../', '../../secrets/', '\u0000', '/registry/', `${k.resource}/`, 'z'.repeat(1000), 5, null, '%2e%2e/', 'default/\uffff']);
  const v = f.pick<unknown>(['meta.k8s.io/v1', 'meta.k8s.io/v2', '', 7]);
  const token = f.pick([
    () => b64(JSON.stringify({ v, rv, start })),
    () => b64url(JSON.stringify({ v, rv, start })),
    () => b64(JSON.stringify({ rv, start })),
    () => b64(JSON.stringify([1, 2])),
    () => b64('not json'),
    () => '!!!not-base64!!!',
    () => b64(JSON.stringify({ v, rv, start })).slice(0, 5 + f.int(30)),
    () => 'A'.repeat(f.pick([1, 3, 5000])),
  ])();
  return encodeURIComponent(token);
}

function query(f: Fuzzer, k: KindInfo, verb: FuzzVerb): string {
  const params: string[] = [];
  const add = [
    () => `limit=${f.pick(['-1', '0', '1', '2', 'abc', '1e3', '99999999999999999999', ''])}`,
    () => `continue=${forgedContinue(f, k)}`,
    () => `resourceVersion=${f.pick(['0', '1', '-1', 'abc', '999999999999', '1e3', '', '18446744073709551616'])}`,
    () => `resourceVersionMatch=${f.pick(['Exact', 'NotOlderThan', 'exact', 'Nope', ''])}`,
    () => `labelSelector=${encodeURIComponent(f.pick(['!!!', 'a in (', 'a=b,c!=d', 'a notin (x)', '=', 'a=' + 'x'.repeat(100), 'a', '!a', 'a==b==c', 'a in (b c)']))}`,
    () => `fieldSelector=${encodeURIComponent(f.pick(['metadata.name=x', 'metadata.name==x==y', 'spec.nope=1', 'metadata.namespace!=', '=', 'metadata.name', 'status.phase=Active', 'metadata.name=' + 'x'.repeat(300)]))}`,
    () => `timeoutSeconds=${f.pick(['-5', 'abc', '0', '1', '99999999999'])}`,
    () => `timeout=${f.pick(['1ns', '1ms', '10ms', '-1s', 'abc', '1h', '0'])}`,
    () => `allowWatchBookmarks=${f.pick(['true', 'x'])}`,
    () => `sendInitialEvents=${f.pick(['true', 'false', 'x'])}`,
    () => `dryRun=${f.pick(['All', 'Some', ''])}`,
    () => `fieldManager=${encodeURIComponent(f.pick(['', 'm'.repeat(200), 'bad\u0001', 'fuzz']))}`,
    () => `fieldValidation=${f.pick(['Strict', 'Warn', 'Ignore', 'Loose', ''])}`,
    () => `force=${f.pick(['true', 'perhaps'])}`,
    () => `propagationPolicy=${f.pick(['Orphan', 'Background', 'Foreground', 'Sideways'])}`,
    () => `gracePeriodSeconds=${f.pick(['-1', '0', 'x', '99999999999999'])}`,
    () => `orphanDependents=${f.pick(['true', 'x'])}`,
    () => `pretty=${f.pick(['true', '1', 'x'])}`,
    () => `watch=${f.pick(['true', '1', 'false', 'maybe'])}`,
    () => `%zz=${f.text(3)}`,
    () => `${encodeURIComponent(f.text(4))}=${encodeURIComponent(f.text(4))}`,
  ];
  // Mostly clean, so most requests reach the code behind the query parsing.
  const n = f.chance(0.6) ? 0 : 1 + f.int(3);
  for (let i = 0; i < n; i++) params.push(f.pick(add)());
  if (verb === 'patch-apply' && f.chance(0.8)) params.push('fieldManager=fuzz');
  if (verb === 'watch' && f.chance(0.9)) params.push('timeoutSeconds=1');
  return params.length ? `?${params.join('&')}` : '';
}

/** A random JSON value of a wrong type for most fields. */
function wrongValue(f: Fuzzer): unknown {
  return f.pick<() => unknown>([
    () => null,
    () => 0,
    () => -1,
    () => 1e308,
    () => 3.5,
    () => true,
    () => '',
    () => 'x',
    () => f.text(1 + f.int(20)),
    () => [],
    () => [null],
    () => [1, 'a', {}],
    () => ({}),
    () => ({ x: { y: [1] } }),
    () => 'x'.repeat(f.pick([300, 70_000])),
    () => '2020-13-45T99:99:99Z',
    () => ({ $ref: '#' }),
  ])();
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Every path (as keys) to a value in `obj`, objects and arrays included. */
function paths(obj: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (obj && typeof obj === 'object') {
    for (const [key, value] of Object.entries(obj)) {
      const p = [...prefix, Array.isArray(obj) ? Number(key) : key];
      out.push(p);
      if (out.length < 400) paths(value, p, out);
    }
  }
  return out;
}

function setPath(obj: Record<string, unknown>, path: (string | number)[], value: unknown, remove: boolean): void {
  let cur: Record<string, unknown> = obj;
  for (const key of path.slice(0, -1)) {
    const next = (cur as Record<string | number, unknown>)[key];
    if (!next || typeof next !== 'object') return;
    cur = next as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(cur)) cur.splice(Number(last), 1);
    else delete cur[last];
  } else (cur as Record<string | number, unknown>)[last] = value;
}

/** Fields kube kinds commonly have that the template may lack, set to a wrong type. */
const EXTRA_FIELDS: (string | number)[][] = [
  ['spec'], ['status'], ['metadata'], ['metadata', 'name'], ['metadata', 'namespace'], ['metadata', 'labels'], ['metadata', 'annotations'],
  ['metadata', 'finalizers'], ['metadata', 'ownerReferences'], ['metadata', 'managedFields'], ['metadata', 'generateName'], ['metadata', 'resourceVersion'],
  ['metadata', 'deletionTimestamp'], ['metadata', 'uid'], ['rules'], ['subjects'], ['roleRef'], ['aggregationRule'], ['webhooks'], ['spec', 'versions'],
  ['spec', 'names'], ['spec', 'group'], ['spec', 'scope'], ['spec', 'service'], ['spec', 'conversion'], ['spec', 'ports'], ['subsets'], ['spec', 'finalizers'],
  ['spec', 'resourceAttributes'], ['spec', 'nonResourceAttributes'], ['spec', 'replicas'], ['spec', 'versions', 0, 'schema'], ['spec', 'versions', 0, 'schema', 'openAPIV3Schema'],
  ['webhooks', 0, 'clientConfig'], ['webhooks', 0, 'rules'], ['rules', 0, 'verbs'], ['rules', 0, 'apiGroups'], ['subjects', 0, 'kind'], ['roleRef', 'kind'],
  ['spec', 'groupPriorityMinimum'], ['spec', 'caBundle'], ['spec', 'versions', 0, 'additionalPrinterColumns'], ['spec', 'versions', 0, 'subresources'],
];

/** The template with a few fields removed or set to wrong types, or the object's identity broken. */
export function brokenObject(f: Fuzzer, k: KindInfo, name: string, all: KindInfo[]): unknown {
  const obj = clone(k.template);
  (obj.metadata as Record<string, unknown>) = { ...((obj.metadata as Record<string, unknown>) ?? {}), name };
  const mutations = 1 + f.int(3);
  for (let i = 0; i < mutations; i++) {
    const choice = f.int(10);
    if (choice < 3) {
      const ps = paths(obj);
      if (ps.length) setPath(obj, f.pick(ps), undefined, true);
    } else if (choice < 6) {
      const ps = paths(obj);
      if (ps.length) setPath(obj, f.pick(ps), wrongValue(f), false);
    } else if (choice < 8) {
      setPath(obj, f.pick(EXTRA_FIELDS), wrongValue(f), false);
    } else if (choice === 8) {
      const other = f.pick(all);
      obj.kind = f.pick<unknown>([other.kind, 'Nope', '', k.kind.toLowerCase(), 5, undefined]);
      obj.apiVersion = f.pick<unknown>([other.group ? `${other.group}/${other.version}` : other.version, 'v2', 'nope/v1', '', k.group, null, undefined]);
    } else {
      return f.pick<unknown>([{}, [], null, 'x', 1, { metadata: { name } }, { apiVersion: obj.apiVersion, kind: obj.kind }, { ...obj, metadata: f.pick([null, [], 'x', 1]) }]);
    }
  }
  return obj;
}

/** A protobuf varint. */
function varint(n: number): Buffer {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Buffer.from(out);
}

function field(num: number, data: Buffer): Buffer {
  return Buffer.concat([varint((num << 3) | 2), varint(data.length), data]);
}

/** kube's protobuf envelope (magic + runtime.Unknown{typeMeta, raw, contentEncoding, contentType}), honest or broken. */
export function protobufBody(f: Fuzzer, k: KindInfo, json: unknown): Buffer {
  const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
  const apiVersion = k.group ? `${k.group}/${k.version}` : k.version;
  const typeMeta = Buffer.concat([field(1, Buffer.from(f.chance(0.8) ? apiVersion : 'v9')), field(2, Buffer.from(f.chance(0.8) ? k.kind : 'Nope'))]);
  const raw = f.pick([
    () => f.bytes(f.int(64)),
    () => Buffer.from(JSON.stringify(json)),
    () => Buffer.concat([field(1, Buffer.from('name')), f.bytes(8)]),
    () => Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]),
    () => Buffer.alloc(0),
  ])();
  const unknown = f.pick([
    () => Buffer.concat([field(1, typeMeta), field(2, raw)]),
    () => Buffer.concat([field(1, typeMeta), field(2, raw), field(3, Buffer.from('gzip')), field(4, Buffer.from('application/json'))]),
    () => Buffer.concat([field(1, typeMeta)]),
    () => Buffer.concat([varint((2 << 3) | 2), varint(1_000_000), raw]),
    () => f.bytes(f.int(100)),
    () => Buffer.concat([field(1, f.bytes(f.int(20))), field(2, raw)]).subarray(0, 1 + f.int(20)),
  ])();
  return f.chance(0.9) ? Buffer.concat([magic, unknown]) : unknown;
}

function nameFor(f: Fuzzer, k: KindInfo): string {
  const existing = (k.template.metadata as { name?: string } | undefined)?.name;
  if (f.chance(0.6)) return existing ?? 'fz-1';
  return f.pick(['fz-1', 'fz-2', `fz-${f.int(50)}`, 'UPPER', 'a'.repeat(300), '..', '.', '%2e%2e', 'a%2Fb', 'ünï', ' ', '-x', 'x'.repeat(64)]);
}

function trickPath(f: Fuzzer, path: string): string {
  if (f.chance(0.85)) return path;
  return f.pick([
    () => path + '/',
    () => path.replace(/\/([^/]+)$/, '/./$1'),
    () => path + '/%2e%2e/%2e%2e/clusterrolebindings',
    () => path + '/../' + f.pick(['secrets', 'widgets', 'x']),
    () => path.replace('/apis/', '/apis//'),
    () => path.replace(/\/namespaces\/[^/]+/, `/namespaces/${f.pick(NAMESPACES)}`),
    () => path.toUpperCase(),
    () => path.replace('/api/', '/api/v1/watch/').replace('/apis/', '/apis/watch/'),
    () => path + '/' + f.pick(['status', 'scale', 'finalize', 'approval', 'eviction', 'nope', 'status/extra']),
    () => path + '%00',
    () => path + '#frag',
    () => path + '/' + encodeURIComponent(f.text(5)),
  ])();
}

const PATCH_TYPES: Record<string, string> = {
  'patch-json': 'application/json-patch+json',
  'patch-merge': 'application/merge-patch+json',
  'patch-strategic': 'application/strategic-merge-patch+json',
  'patch-apply': 'application/apply-patch+yaml',
};

function jsonPatch(f: Fuzzer, k: KindInfo): unknown {
  const ops = Array.from({ length: 1 + f.int(3) }, () => {
    const path = '/' + f.pick(EXTRA_FIELDS).join('/');
    return f.pick<unknown>([
      { op: f.pick(['add', 'replace', 'test', 'remove', 'move', 'copy', 'explode', 5]), path, value: wrongValue(f), from: '/' + f.pick(EXTRA_FIELDS).join('/') },
      { op: 'add', path: f.pick(['', '/', '~2', '/metadata/labels/~1x', '/spec/-', '/spec/0/-/x', '/' + 'a/'.repeat(200)]), value: 1 },
      { op: 'replace', path: '/metadata/name', value: 'renamed' },
      { op: 'replace', path: '/kind', value: 'Nope' },
      { op: 'remove', path: '/metadata' },
      { op: 'remove', path: '/spec' },
      { path },
      'string',
      null,
    ]);
  });
  void k;
  return f.chance(0.9) ? ops : f.pick<unknown>([{}, 'x', null]);
}

function body(f: Fuzzer, k: KindInfo, verb: FuzzVerb, name: string, all: KindInfo[]): { contentType: string; data?: Buffer } {
  const obj = verb === 'patch-json' ? jsonPatch(f, k) : brokenObject(f, k, name, all);
  let contentType = verb in PATCH_TYPES ? PATCH_TYPES[verb]! : 'application/json';
  const form = f.int(20);
  let data: Buffer;
  if (form < 12) data = Buffer.from(JSON.stringify(obj) ?? 'null');
  else if (form < 14) {
    // JSON, cut short or with a byte changed.
    const text = JSON.stringify(obj) ?? 'null';
    data = Buffer.from(f.chance(0.5) ? text.slice(0, f.int(text.length)) : text.replace(/[{}[\]":,]/, () => f.text(1)));
  } else if (form < 16) {
    data = protobufBody(f, k, obj);
    contentType = 'application/vnd.kubernetes.protobuf';
  } else if (form < 17) {
    data = Buffer.from(`apiVersion: ${String((obj as { apiVersion?: unknown })?.apiVersion)}\nkind: ${k.kind}\nmetadata:\n  name: ${name}\nspec: ${f.pick(['[', '{', '*a', '&a x', '!!binary x', '7', '"x"'])}\n`);
    contentType = f.pick(['application/yaml', 'application/apply-patch+yaml']);
  } else if (form < 18) {
    data = Buffer.from(JSON.stringify(obj) ?? 'null');
    contentType = f.pick(['text/plain', 'application/xml', '', ';;', 'application/json; charset=latin1', 'application/vnd.kubernetes.protobuf;stream=watch', 'application/apply-patch+cbor', 'application/merge-patch+json']);
  } else if (form < 19) {
    data = f.bytes(f.int(300));
  } else {
    data = Buffer.from(JSON.stringify(obj) ?? 'null');
  }
  return { contentType, data };
}

function deleteOptions(f: Fuzzer): Buffer | undefined {
  if (f.chance(0.5)) return undefined;
  return Buffer.from(
    JSON.stringify(
      f.pick<unknown>([
        { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: f.pick(['Orphan', 'Sideways', 5]) },
        { preconditions: { uid: f.pick(['x', 5, null]), resourceVersion: f.pick(['1', 'x', [], null]) } },
        { gracePeriodSeconds: f.pick([-1, 'x', 1e20, null]) },
        { dryRun: f.pick([['All'], ['Some'], 'All', 5]) },
        { kind: 'Widget', apiVersion: 'widgets.example.com/v1' },
        [],
        'x',
        { orphanDependents: 'yes', propagationPolicy: 'Orphan' },
      ]),
    ),
  );
}

const ACCEPTS = ['application/json', 'application/json', 'application/json', 'application/json', 'application/json', 'application/json', 'application/json', 'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', 'application/json;as=Table;v=v9;g=x', 'text/html'];

/** One hostile request for `verb` on kind `k`. */
export function kindRequest(f: Fuzzer, k: KindInfo, verb: FuzzVerb, all: KindInfo[]): KindRequest {
  const ns = k.namespaced ? (f.chance(0.8) ? 'default' : f.pick(['fz', ...NAMESPACES])) : '';
  const collection = collectionPath(k, ns);
  const name = nameFor(f, k);
  const object = `${collection}/${encodeURIComponent(name).replace(/%25/g, '%')}`;
  const headers: Record<string, string> = { accept: f.chance(0.85) ? 'application/json' : f.pick(ACCEPTS) };
  const q = query(f, k, verb);
  let method: string;
  let path: string;
  let data: Buffer | undefined;
  switch (verb) {
    case 'get':
      method = f.chance(0.9) ? 'GET' : 'HEAD';
      path = object;
      break;
    case 'list':
      method = 'GET';
      path = f.chance(0.2) ? `${base(k)}/${k.resource}` : collection;
      break;
    case 'watch':
      method = 'GET';
      path = f.chance(0.3) ? collection.replace(/^(\/apis?\/(?:[^/]+\/)?[^/]+)\//, '$1/watch/') : `${collection}${q ? '' : ''}`;
      if (!/[?&]watch=/.test(q)) path += (q ? q + '&' : '?') + 'watch=true';
      else path += q;
      return finish(f, { method, path: trickPath(f, path.split('?')[0]!) + (path.includes('?') ? '?' + path.split('?')[1] : ''), headers, watch: true });
    case 'create': {
      method = 'POST';
      path = collection;
      const b = body(f, k, verb, name, all);
      headers['content-type'] = b.contentType;
      data = b.data;
      break;
    }
    case 'update': {
      method = 'PUT';
      path = f.chance(0.2) && k.subresources.length ? `${object}/${f.pick(k.subresources)}` : object;
      const b = body(f, k, verb, name, all);
      headers['content-type'] = b.contentType;
      data = b.data;
      break;
    }
    case 'delete':
      method = 'DELETE';
      path = object;
      data = deleteOptions(f);
      if (data) headers['content-type'] = 'application/json';
      break;
    case 'deletecollection':
      method = 'DELETE';
      path = collection;
      data = deleteOptions(f);
      if (data) headers['content-type'] = 'application/json';
      break;
    default: {
      method = 'PATCH';
      path = f.chance(0.2) && k.subresources.length ? `${object}/${f.pick(k.subresources)}` : object;
      const b = body(f, k, verb, name, all);
      headers['content-type'] = b.contentType;
      data = b.data;
    }
  }
  return finish(f, { method, path: trickPath(f, path) + q, headers, body: data });
}

function finish(f: Fuzzer, req: KindRequest): KindRequest {
  if (req.body && f.chance(0.03)) req.slow = true;
  // Oversized (past 3 MiB) and large bodies: rare, they cost the shared machine real bytes.
  if (f.chance(0.004)) req.body = Buffer.concat([req.body ?? Buffer.alloc(0), Buffer.alloc(f.pick([256 * 1024, 1024 * 1024, 3 * 1024 * 1024 + 1]), ' ')]);
  return req;
}
