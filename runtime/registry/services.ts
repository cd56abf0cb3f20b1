/**
 * core/v1 Service's strategy: a cluster IP allocated on create (kube's service REST
 * BeginCreate, clusterip.ts), kube's ValidateService rules per type on create and update, and
 * spec.clusterIP immutable once set (ValidateServiceUpdate), with kube's field paths and messages.
 * kgen's Service has clusterIP but not clusterIPs; the rules kube states on clusterIPs (which its
 * defaulting fills from clusterIP) are reported on the field kube names.
 *
 * NodePort and LoadBalancer Services get node ports from the node port range on create
 * (nodeport.ts). Addresses and ports are given back when the Service is deleted (kube's
 * AfterDelete). Not done here, unlike kube: allocation when an update changes the type (see
 * README, Kubernetes compatibility).
 */
import type { KubeObject, StatusCause } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { field, isDNS1123Subdomain, toStatusCauses, type FieldError } from '../validation/index.js';
import { ipWarnings } from '../validation/ip.js';
import type { ClusterIPAllocator } from './clusterip.js';
import type { NodePortAllocator } from './nodeport.js';
import type { RESTStrategy } from './strategy.js';

interface ServicePort {
  name?: string;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  externalName?: string;
  ports?: ServicePort[];
}

export function isServiceResource(def: Pick<ResourceDefinition, 'group' | 'plural'>): boolean {
  return def.group === '' && def.plural === 'services';
}

const specOf = (obj: KubeObject): ServiceSpec => (typeof obj.spec === 'object' && obj.spec !== null ? (obj.spec as ServiceSpec) : {});
const typeOf = (spec: ServiceSpec) => spec.type ?? 'ClusterIP';
const refOf = (obj: KubeObject) => ({ namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });
const isHeadless = (spec: ServiceSpec) => spec.clusterIP === 'None';

/** ValidateService's rules that depend on the Service's type. */
export function validateServiceSpec(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeOf(spec);
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  if (ports.length === 0 && !isHeadless(spec) && type !== 'ExternalName') errs.push(field.required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const name = typeof p?.name === 'string' ? p.name : '';
    if (ports.length > 1 && name === '') errs.push(field.required(`spec.ports[${i}].name`));
    else if (name !== '' && names.has(name)) errs.push(field.duplicate(`spec.ports[${i}].name`, name));
    names.add(name);
    if (type === 'ClusterIP' && p?.nodePort !== undefined && p.nodePort !== 0) {
      errs.push(field.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    }
  });
  switch (type) {
    case 'ExternalName': {
      if (spec.clusterIP) errs.push(field.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      // The CNAME may end in a dot, marking it fully qualified.
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (cname === '') errs.push(field.required('spec.externalName'));
      else for (const msg of isDNS1123Subdomain(cname)) errs.push(field.invalid('spec.externalName', cname, msg));
      break;
    }
    case 'LoadBalancer':
    case 'NodePort':
      if (isHeadless(spec)) errs.push(field.invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`));
      break;
  }
  return errs;
}

/** ValidateServiceUpdate: clusterIP may not change once set, unless the Service is or was ExternalName. */
export function validateServiceUpdate(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (typeOf(spec) === 'ExternalName' || typeOf(old) === 'ExternalName' || !old.clusterIP) return [];
  if ((spec.clusterIP ?? '') === old.clusterIP) return [];
  return [field.invalid('spec.clusterIP', spec.clusterIP ?? '', 'field is immutable')];
}

const TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';

/**
 * kube's GetWarningsForService (pkg/api/service/warnings.go), for the fields kgen's Service has:
 * the deprecated topology-aware-hints annotation, a cluster IP not in standard form (kube warns
 * on clusterIPs, which its defaulting fills from clusterIP; an allocated one always is), and an
 * externalName a type other than ExternalName ignores. (externalIPs, loadBalancerIP,
 * loadBalancerSourceRanges, sessionAffinity and trafficDistribution, which kube also warns
 * about, are not fields of kgen's Service.)
 */
export function serviceWarnings(obj: KubeObject): string[] {
  const warnings: string[] = [];
  const annotations = obj.metadata.annotations;
  if (annotations !== undefined && annotations !== null && Object.hasOwn(annotations, TOPOLOGY_AWARE_HINTS)) {
    warnings.push(`annotation ${TOPOLOGY_AWARE_HINTS} is deprecated, please use ${TOPOLOGY_MODE} instead`);
  }
  const spec = specOf(obj);
  if (typeof spec.clusterIP === 'string' && spec.clusterIP !== '' && spec.clusterIP !== 'None') warnings.push(...ipWarnings('spec.clusterIPs[0]', spec.clusterIP));
  if (typeOf(spec) !== 'ExternalName' && typeof spec.externalName === 'string' && spec.externalName !== '') {
    warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  }
  return warnings;
}

/** Whether a Service of this spec gets node ports: NodePort and LoadBalancer. */
const needsNodePorts = (spec: ServiceSpec) => typeOf(spec) === 'NodePort' || typeOf(spec) === 'LoadBalancer';

/** Whether a Service of this spec gets a cluster IP: not headless, not ExternalName. */
const needsClusterIP = (spec: ServiceSpec) => typeOf(spec) !== 'ExternalName' && !isHeadless(spec);

/**
 * SetDefaults_Service's ports: a port without a targetPort (or with 0 or "", Go's zero value)
 * targets its own port number. kube defaults as it decodes, before the strategy runs.
 */
export function defaultServicePorts(obj: KubeObject): void {
  const spec = obj.spec as { ports?: unknown } | undefined;
  if (typeof spec !== 'object' || spec === null || !Array.isArray(spec.ports)) return;
  for (const p of spec.ports as Array<Record<string, unknown> | null>) {
    if (typeof p !== 'object' || p === null || typeof p.port !== 'number') continue;
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
}

export function withServiceStrategy(base: RESTStrategy, allocator?: ClusterIPAllocator, nodePorts?: NodePortAllocator): RESTStrategy {
  return {
    ...base,
    prepareForCreate(obj) {
      defaultServicePorts(obj);
      base.prepareForCreate(obj);
    },
    async beginCreate(obj, opts) {
      const finishBase = await base.beginCreate?.(obj, opts);
      const spec = specOf(obj);
      if (typeof obj.spec !== 'object' || obj.spec === null) return (stored) => finishBase?.(stored);
      const ref = refOf(obj);
      const finishers: Array<(stored: boolean) => Promise<void>> = [];
      try {
        if (allocator && needsClusterIP(spec)) {
          const { ip, done } = await allocator.allocate(ref, spec.clusterIP || undefined, opts.dryRun);
          spec.clusterIP = ip;
          finishers.push(done);
        }
        // kube's allocateLoadBalancerNodePorts defaults to true: LoadBalancer Services get node ports too.
        if (nodePorts && needsNodePorts(spec) && Array.isArray(spec.ports)) finishers.push(await nodePorts.allocate(ref, spec.ports, opts.dryRun));
      } catch (err) {
        for (const done of finishers) await done(false);
        throw err;
      }
      return async (stored) => {
        for (const done of finishers) await done(stored);
        await finishBase?.(stored);
      };
    },
    async afterUpdate(obj, old) {
      await base.afterUpdate?.(obj, old);
      const spec = specOf(obj);
      const oldSpec = specOf(old);
      const ref = refOf(obj);
      // Becoming ExternalName drops the cluster IP (prepareForUpdate); other types keep theirs.
      if (allocator && oldSpec.clusterIP && oldSpec.clusterIP !== 'None' && oldSpec.clusterIP !== spec.clusterIP) await allocator.release(oldSpec.clusterIP, ref).catch(() => undefined);
      const kept = new Set((Array.isArray(spec.ports) ? spec.ports : []).map((p) => p?.nodePort));
      const dropped = (Array.isArray(oldSpec.ports) ? oldSpec.ports : []).filter((p) => typeof p?.nodePort === 'number' && !kept.has(p.nodePort));
      if (nodePorts && dropped.length > 0) await nodePorts.release(ref, dropped).catch(() => undefined);
    },
    async afterDelete(obj) {
      await base.afterDelete?.(obj);
      const spec = specOf(obj);
      // A failed release only delays reuse: the allocators take over a reservation whose Service is gone.
      if (allocator && spec.clusterIP && spec.clusterIP !== 'None') await allocator.release(spec.clusterIP, refOf(obj)).catch(() => undefined);
      if (nodePorts && Array.isArray(spec.ports)) await nodePorts.release(refOf(obj), spec.ports).catch(() => undefined);
    },
    prepareForUpdate(obj, old) {
      defaultServicePorts(obj);
      base.prepareForUpdate(obj, old);
      // kube's dropTypeDependentFields: becoming ExternalName gives the cluster IP back.
      const spec = specOf(obj);
      const oldSpec = specOf(old);
      if (typeOf(spec) === 'ExternalName' && typeOf(oldSpec) !== 'ExternalName' && spec.clusterIP === oldSpec.clusterIP) delete spec.clusterIP;
    },
    validate(obj): StatusCause[] {
      return [...base.validate(obj), ...toStatusCauses(validateServiceSpec(specOf(obj)))];
    },
    validateUpdate(obj, old): StatusCause[] {
      const spec = specOf(obj);
      return [...base.validateUpdate(obj, old), ...toStatusCauses([...validateServiceSpec(spec), ...validateServiceUpdate(spec, specOf(old))])];
    },
    warningsOnCreate: serviceWarnings,
    warningsOnUpdate: (obj) => serviceWarnings(obj),
  };
}
