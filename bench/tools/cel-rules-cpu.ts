/**
 * CPU of x-kubernetes-validations on the write path: a custom resource whose schema carries 11
 * rules of the kinds Kubernetes' documentation shows (bounds on replicas, an immutable name with
 * oldSelf, a regex, startsWith, a map's keys, `in`, a walk over a 100-entry list-type=map and a
 * rule per entry), in the checkout given (default: this one), run in this process.
 *
 *   node --conditions=kgen:source --import tsx bench/tools/cel-rules-cpu.ts <validate|create> [<kgen checkout>] [--n n] [--no-rules]
 *
 * validate: the schema validator's validate() (schema checks, then the rules with their cost
 * limits), alternately with and without an old object; µs of CPU per call.
 * create: POSTs of the resource through the in-process server chain (test/apiextensions/chain.ts,
 * memory storage) after its CRD; µs of CPU per create. --no-rules strips the rules, so the
 * difference of the two runs is what the rules cost.
 *
 * Prints one JSON line per checkout: three rounds, and the load. Run it for two checkouts
 * alternately in the same minutes to compare them (tsx's helpers inflate both alike).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { n: { type: 'string' }, 'no-rules': { type: 'boolean', default: false } } });
const mode = positionals[0] ?? 'validate';
const root = resolve(positionals[1] ?? '.');

const properties = {
  replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= 0' }] },
  minReplicas: { type: 'integer' },
  maxReplicas: { type: 'integer' },
  name: { type: 'string', maxLength: 63, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
  host: { type: 'string', maxLength: 253, 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z0-9.-]+$')" }] },
  version: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [{ rule: "self.startsWith('v')" }] },
  labels: {
    type: 'object',
    maxProperties: 50,
    additionalProperties: { type: 'string', maxLength: 63 },
    'x-kubernetes-validations': [{ rule: "'app' in self" }, { rule: 'self.all(k, k.size() <= 63)' }],
  },
  ports: {
    type: 'array',
    maxItems: 100,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 15 }, port: { type: 'integer' }, protocol: { type: 'string', enum: ['TCP', 'UDP'] } },
      'x-kubernetes-validations': [{ rule: 'self.port > 0 && self.port < 65536', message: 'port out of range' }],
    },
    'x-kubernetes-validations': [{ rule: "self.all(p, p.protocol == 'TCP' || p.protocol == 'UDP')" }],
  },
};
const specRules = [{ rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', message: 'replicas out of bounds' }, { rule: '!has(self.host) || has(self.version)' }];
const schema = { type: 'object', properties: { spec: { type: 'object', properties, 'x-kubernetes-validations': specRules } } };
if (values['no-rules']) {
  const strip = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    delete (x as Record<string, unknown>)['x-kubernetes-validations'];
    Object.values(x).forEach(strip);
  };
  strip(schema);
}

const spec = (i: number) => ({
  replicas: 3,
  minReplicas: 1,
  maxReplicas: 10,
  name: `obj-${i}`,
  host: 'a.example.com',
  version: 'v1.2.3',
  labels: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [j === 0 ? 'app' : `key${j}`, `value${j}`])),
  ports: Array.from({ length: 100 }, (_, j) => ({ name: `p${j}`, port: 1000 + j, protocol: j % 2 ? 'TCP' : 'UDP' })),
});

function rounds(n: number, run: () => void | Promise<void>): Promise<number[]> {
  return (async () => {
    const out: number[] = [];
    for (let r = 0; r < 3; r++) {
      const start = process.cpuUsage();
      for (let i = 0; i < n; i++) await run();
      const used = process.cpuUsage(start);
      out.push(Math.round(((used.user + used.system) / n) * 10) / 10);
    }
    return out;
  })();
}

if (mode === 'validate') {
  const { compileSchemaValidator } = await import(`${root}/runtime/validation/index.ts`);
  const validator = compileSchemaValidator({ R: schema } as never, 'R');
  const objs = Array.from({ length: 50 }, (_, i) => ({ spec: spec(i) }));
  const olds = objs.map((o) => structuredClone(o));
  for (let i = 0; i < 600; i++) {
    const errs = validator.validate(objs[i % 50], i % 2 ? olds[i % 50] : undefined);
    if (errs.length) throw new Error(JSON.stringify(errs));
  }
  let i = 0;
  const n = Number(values.n ?? 3000);
  const out = await rounds(n, () => {
    validator.validate(objs[i % 50], i % 2 ? olds[i % 50] : undefined);
    i++;
  });
  console.log(JSON.stringify({ root, mode, rules: !values['no-rules'], usPerValidate: out, load: loadavg()[0].toFixed(1) }));
} else {
  const { startChain, crdWithSpec } = await import(`${root}/test/apiextensions/chain.ts`);
  const chain = await startChain();
  const crd = crdWithSpec('bench.example.com', 'gadgets', 'Gadget', schema.properties.spec.properties);
  const specSchema = (crd as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] } }).spec.versions[0]!.schema.openAPIV3Schema.properties.spec;
  if (!values['no-rules']) specSchema['x-kubernetes-validations'] = specRules;
  const made = await chain.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (made.code !== 201) throw new Error(JSON.stringify(made.body));
  await chain.settle();
  let i = 0;
  const create = async () => {
    const res = await chain.request('POST', '/apis/bench.example.com/v1/namespaces/default/gadgets', { apiVersion: 'bench.example.com/v1', kind: 'Gadget', metadata: { name: `g${i}` }, spec: spec(i) });
    i++;
    if (res.code !== 201) throw new Error(JSON.stringify(res.body).slice(0, 400));
  };
  for (let k = 0; k < 300; k++) await create();
  const out = await rounds(Number(values.n ?? 500), create);
  console.log(JSON.stringify({ root, mode, rules: !values['no-rules'], usPerCreate: out, load: loadavg()[0].toFixed(1) }));
  await chain.close();
}
process.exit(0);
