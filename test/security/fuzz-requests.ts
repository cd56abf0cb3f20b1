/**
 * A deterministic generator of requests that make no sense: malformed JSON and YAML, deep
 * nesting, huge bodies, wrong content types, odd paths, methods, queries and headers, invalid
 * names. Each is small data; the fuzz test sends them.
 */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Fuzzer {
  constructor(private readonly rand: () => number) {}

  int(n: number): number {
    return Math.floor(this.rand() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.rand() < p;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
  text(n: number, alphabet = 'abcXYZ019-._~!*\'();:@&=+$,/?#[]{}"\\ \t\n%é☃\u0000'): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
}

const WIDGETS = '/apis/widgets.example.com/v1/namespaces/default/widgets';
const GADGETS = '/apis/widgets.example.com/v1/gadgets';
const NAMESPACES = '/api/v1/namespaces';

const COLLECTIONS = [WIDGETS, GADGETS, NAMESPACES, '/apis/widgets.example.com/v1/widgets', '/apis/widgets.example.com/v1/namespaces/nope/widgets'];
const OBJECTS = [`${WIDGETS}/w0`, `${WIDGETS}/w0/status`, `${WIDGETS}/w0/scale`, `${GADGETS}/g0`, `${NAMESPACES}/default`, `${NAMESPACES}/fz/finalize`, `${NAMESPACES}/fz/status`];
const NON_RESOURCE = ['/', '/api', '/apis', '/apis/widgets.example.com', '/apis/widgets.example.com/v1', '/openapi/v2', '/openapi/v3', '/openapi/v3/apis/widgets.example.com/v1', '/version', '/healthz', '/livez/ping', '/readyz/nope', '/metrics', '/logs'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO', 'get'];
const CONTENT_TYPES = [
  'application/json', 'application/yaml', 'application/merge-patch+json', 'application/json-patch+json', 'application/strategic-merge-patch+json',
  'application/apply-patch+yaml', 'application/vnd.kubernetes.protobuf', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x',
  'application/json; charset=utf-16', ';;;', '/', 'application/', '*/*', 'application/json;as=Table;g=meta.k8s.io;v=v1', '',
];
const ACCEPTS = [
  'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=Table;v=v9;g=x',
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', 'text/html', 'image/png', ';', '*/*;q=abc', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
];
const QUERIES = [
  'labelSelector=!!!', 'labelSelector=a%20in%20(', 'fieldSelector=metadata.name%3D%3D%3Dx', 'fieldSelector=spec.nope=1', 'limit=-1', 'limit=abc', 'limit=99999999999999999999',
  'continue=garbage', 'resourceVersion=abc', 'resourceVersion=-5', 'resourceVersionMatch=Exact', 'watch=maybe', 'timeoutSeconds=-5', 'timeout=abc', 'dryRun=Some',
  'fieldValidation=Loose', 'fieldManager=' + 'm'.repeat(200), 'force=perhaps', 'propagationPolicy=Sideways', 'gracePeriodSeconds=x', 'pretty=1', 'includeObject=Everything',
  'allowWatchBookmarks=x', 'sendInitialEvents=true', '%zz=1', 'a=%', 'exclude=ping&verbose',
];
const NAMES = ['UPPER', 'a'.repeat(300), '..', '.', '-lead', 'trail-', 'sp ace', 'ünï', 'a/b', '', 'a:b', 'x'.repeat(64), '0', 'tab\t'];

/** Builds one nonsensical request. */
export function fuzzRequest(f: Fuzzer): FuzzRequest {
  const kind = f.int(10);
  switch (kind) {
    case 0:
      return malformedJSON(f);
    case 1:
      return malformedYAML(f);
    case 2:
      return deepNesting(f);
    case 3:
      return wrongContentType(f);
    case 4:
      return oddPath(f);
    case 5:
      return oddMethod(f);
    case 6:
      return invalidName(f);
    case 7:
      return oddHeaders(f);
    case 8:
      return oddQuery(f);
    default:
      return wrongShape(f);
  }
}

function write(f: Fuzzer): { method: string; path: string } {
  return f.pick([
    { method: 'POST', path: f.pick(COLLECTIONS) },
    { method: 'PUT', path: f.pick(OBJECTS) },
    { method: 'PATCH', path: f.pick(OBJECTS) },
    { method: 'DELETE', path: f.pick(OBJECTS) },
    { method: 'DELETE', path: f.pick(COLLECTIONS) },
  ]);
}

function json(body: string | Buffer, f: Fuzzer, contentType?: string): FuzzRequest {
  const { method, path } = write(f);
  const ct = contentType ?? (method === 'PATCH' ? f.pick(['application/merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml', 'application/strategic-merge-patch+json']) : 'application/json');
  const query = ct === 'application/apply-patch+yaml' ? '?fieldManager=fuzz' : '';
  return { method, path: path + query, headers: { 'content-type': ct }, body: Buffer.from(body) };
}

const VALID = '{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"w0"},"spec":{"replicas":1}}';

function malformedJSON(f: Fuzzer): FuzzRequest {
  const variants = [
    () => VALID.slice(0, f.int(VALID.length)),
    () => VALID.replace(/[{}[\]":,]/, () => f.text(1)),
    () => f.bytes(f.int(200)),
    () => Buffer.concat([Buffer.from('{"metadata":{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]),
    () => '{"a":1,"a":2,"metadata":{"name":"dup","name":"dup2"}}',
    () => '{"spec":{"replicas":1e999}}',
    () => '{"spec":{"replicas":-0.5e-400,"x":' + '1'.repeat(400) + '}}',
    () => '\ufeff' + VALID,
    () => VALID + VALID,
    () => '{"metadata":{"name":"w0","labels":{"' + 'k'.repeat(f.int(500)) + '":"v"}},"spec":{"replicas":"3"}}',
  ];
  return json(f.pick(variants)(), f);
}

function malformedYAML(f: Fuzzer): FuzzRequest {
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
  const variants = [
    () => 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n\tname: tab\n',
    () => 'metadata: {name: "unclosed\n',
    () => 'a: 1\n---\nb: 2\n',
    () => bomb.join('\n') + '\n',
    () => '!!binary AAAA',
    () => 'metadata: &m {name: x}\nspec: *m\nkind: Widget\napiVersion: widgets.example.com/v1\n',
    () => '? [a, b]\n: c\n',
    () => 'spec: !!js/function "function(){}"\n',
    () => f.text(f.int(300), 'a:- \n\t[]{}&*!|>\'"%@`#,?'),
  ];
  return json(f.pick(variants)(), f, f.pick(['application/yaml', 'application/apply-patch+yaml', 'application/yaml', 'text/yaml']));
}

function deepNesting(f: Fuzzer): FuzzRequest {
  const depth = f.pick([400, 498, 499, 500, 501, 1000, 5000]);
  const open = f.chance(0.5) ? '[' : '{"a":';
  const close = open === '[' ? ']' : '}';
  const inner = open.repeat(depth) + (open === '[' ? '' : '1') + close.repeat(depth);
  const body = f.chance(0.5) ? inner : `{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"deep"},"spec":{"replicas":1,"notes":${inner}}}`;
  return json(body, f, f.pick(['application/json', 'application/yaml', 'application/merge-patch+json', 'application/apply-patch+yaml', 'application/json-patch+json']));
}

function wrongContentType(f: Fuzzer): FuzzRequest {
  const body = f.pick([VALID, '<xml/>', 'k8s\u0000' + f.text(20), '--x\r\nContent-Disposition: form-data\r\n\r\nv\r\n--x--']);
  return json(body, f, f.pick(CONTENT_TYPES));
}

function oddPath(f: Fuzzer): FuzzRequest {
  const variants = [
    () => '/' + Array.from({ length: 1 + f.int(8) }, () => encodeURIComponent(f.text(1 + f.int(8)))).join('/'),
    () => f.pick(['/apis/%', '/api/v1/namespaces/%00', '/apis/widgets.example.com/v1/namespaces/%2F/widgets', '//apis//widgets.example.com', '/api/v1/../../etc/passwd', '/apis/widgets.example.com/v1/namespaces/default/widgets/w0/status/extra/more', '/api/v1/watch/namespaces/default/x', '/apis/%ff%fe']),
    () => '/apis/' + 'a'.repeat(8000),
    () => f.pick(COLLECTIONS) + '/' + encodeURIComponent(f.text(3)) + '/' + encodeURIComponent(f.text(3)) + '/' + encodeURIComponent(f.text(3)),
    () => f.pick(NON_RESOURCE) + '/' + encodeURIComponent(f.text(2)),
    () => '/api/v1/namespaces/default/' + f.pick(['pods', 'secrets', 'widgets', 'status', 'finalize']),
  ];
  return { method: f.pick(['GET', 'GET', 'POST', 'DELETE', 'PUT']), path: f.pick(variants)(), headers: {}, body: f.chance(0.3) ? Buffer.from(VALID) : undefined };
}

function oddMethod(f: Fuzzer): FuzzRequest {
  const path = f.pick([...COLLECTIONS, ...OBJECTS, ...NON_RESOURCE]);
  return { method: f.pick(METHODS), path, headers: f.chance(0.5) ? { 'content-type': 'application/json' } : {}, body: f.chance(0.4) ? Buffer.from(VALID) : undefined };
}

function invalidName(f: Fuzzer): FuzzRequest {
  const name = f.pick(NAMES);
  if (f.chance(0.5)) {
    const body = JSON.stringify({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, namespace: f.pick(['default', 'other', name]), generateName: f.pick(['', name, 'g-']) }, spec: { replicas: 1 } });
    return { method: 'POST', path: WIDGETS, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
  }
  return { method: f.pick(['GET', 'PUT', 'DELETE', 'PATCH']), path: `${WIDGETS}/${encodeURIComponent(name)}`, headers: { 'content-type': 'application/merge-patch+json' }, body: Buffer.from('{"spec":{"replicas":2}}') };
}

function oddHeaders(f: Fuzzer): FuzzRequest {
  const headers: Record<string, string> = {};
  const add = [
    () => (headers.accept = f.pick(ACCEPTS)),
    () => (headers['content-encoding'] = 'gzip'),
    () => (headers['if-none-match'] = f.text(10, 'abc"*, W/')),
    () => (headers['impersonate-group'] = 'system:masters'),
    () => (headers['impersonate-user'] = f.pick(['', 'system:serviceaccount:', 'system:serviceaccount:a:b:c', 'x'.repeat(500)])),
    () => (headers['impersonate-extra-%zz'] = 'v'),
    () => (headers.authorization = f.pick(['Bearer', 'Bearer ', 'Basic !!!', 'Bearer ' + 'x'.repeat(4000), 'Negotiate abc'])),
    () => (headers['x-http-method-override'] = 'DELETE'),
    () => (headers['audit-id'] = f.text(40)),
    () => (headers['x-big'] = 'x'.repeat(f.pick([100, 12_000, 20_000]))),
    () => (headers.origin = 'https://evil.example'),
    () => (headers['content-type'] = f.pick(CONTENT_TYPES)),
  ];
  for (let i = 0; i < 1 + f.int(3); i++) f.pick(add)();
  // Header values must be valid for the HTTP client; drop what it would refuse.
  for (const [k, v] of Object.entries(headers)) if (/[^\t\x20-\x7e]/.test(v)) headers[k] = encodeURIComponent(v);
  const { method, path } = f.chance(0.5) ? write(f) : { method: 'GET', path: f.pick([...COLLECTIONS, ...OBJECTS, ...NON_RESOURCE]) };
  return { method, path, headers, body: method === 'GET' || method === 'DELETE' ? undefined : Buffer.from(VALID) };
}

function oddQuery(f: Fuzzer): FuzzRequest {
  const query = Array.from({ length: 1 + f.int(3) }, () => f.pick(QUERIES)).join('&');
  const { method, path } = f.chance(0.6) ? { method: 'GET', path: f.pick([...COLLECTIONS, ...OBJECTS, ...NON_RESOURCE]) } : write(f);
  return { method, path: `${path}?${query}`, headers: { 'content-type': 'application/json' }, body: method === 'GET' || method === 'DELETE' ? undefined : Buffer.from(VALID) };
}

function wrongShape(f: Fuzzer): FuzzRequest {
  const shapes = [
    '[]', '"string"', 'null', '42', 'true', '{}', '{"metadata":5}', '{"metadata":{"name":123}}', '{"metadata":{"labels":[]}}',
    '{"metadata":{"name":"w0","resourceVersion":"not-a-number"},"spec":{"replicas":1}}', '{"apiVersion":"v2","kind":"Nope","metadata":{"name":"w0"}}',
    '{"metadata":{"name":"w0","finalizers":[1,2]},"spec":{"replicas":{"deep":[]}}}', '[{"op":"explode","path":"/x"}]', '[{"op":"add","path":"~~/a","value":1}]',
    '[{"op":"remove","path":"/metadata"}]', '{"spec":{"replicas":9999999999999999999999}}', '{"kind":"Scale","apiVersion":"autoscaling/v1","spec":{"replicas":-1}}',
    '{"metadata":{"managedFields":[{"manager":1,"fieldsV1":"x"}]}}', '{"metadata":{"ownerReferences":[{"uid":"x"}]}}', '{"propagationPolicy":1,"preconditions":"x"}',
    '{"metadata":{"creationTimestamp":"yesterday","deletionGracePeriodSeconds":"x"}}', '{"metadata":{"name":"w0","annotations":{"a":' + '"x"'.repeat(1) + '}},"status":{"x":[[[[]]]]}}',
  ];
  return json(f.pick(shapes), f);
}

/** A few bodies over the 3 MiB limit, one just under it, and the most deeply nested ones. */
export function hugeRequests(): FuzzRequest[] {
  let blockYAML = 'a:\n';
  for (let i = 1; i < 700; i++) blockYAML += `${' '.repeat(i)}a:\n`;
  const deepest = Buffer.from('['.repeat(500_000) + ']'.repeat(500_000));
  const over = Buffer.alloc(3 * 1024 * 1024 + 10, 'a');
  const under = Buffer.from(`{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"huge"},"spec":{"replicas":1,"notes":["${'n'.repeat(3 * 1024 * 1024 - 200)}"]}}`);
  return [
    { method: 'POST', path: WIDGETS, headers: { 'content-type': 'application/json' }, body: over },
    { method: 'PUT', path: `${WIDGETS}/w0`, headers: { 'content-type': 'application/yaml' }, body: over },
    { method: 'PATCH', path: `${WIDGETS}/w0`, headers: { 'content-type': 'application/merge-patch+json' }, body: over },
    { method: 'POST', path: '/nowhere', headers: {}, body: over },
    { method: 'POST', path: WIDGETS, headers: { 'content-type': 'application/json' }, body: under },
    { method: 'POST', path: WIDGETS, headers: { 'content-type': 'application/yaml' }, body: Buffer.from(blockYAML) },
    { method: 'PATCH', path: `${WIDGETS}/w0?fieldManager=fuzz`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: Buffer.from(blockYAML) },
    { method: 'POST', path: WIDGETS, headers: { 'content-type': 'application/json' }, body: deepest },
    { method: 'PUT', path: `${WIDGETS}/w0`, headers: { 'content-type': 'application/yaml' }, body: deepest },
  ];
}
