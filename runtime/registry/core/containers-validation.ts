/**
 * kube's validation of a pod's containers (pkg/apis/core/validation: validateContainers,
 * validateInitContainers, validateContainerCommon and what they call), for the core rules kgen
 * enforces on pod templates, with kube's messages and field paths: names are DNS-1123 labels,
 * unique across containers and init containers; an image is required; ports 1-65535 with unique
 * IANA names and a supported protocol; env var names (kube's relaxed rule, GA in 1.34) and one
 * valueFrom source; volumeMounts naming a volume, with a unique mountPath; a probe has exactly
 * one handler; liveness and startup probes need successThreshold 1; resource limits and requests
 * not negative, a request not above its limit.
 */
import { isDNS1123Label } from '../../api/names.js';
import { duplicate, forbidden, invalid, notFound, notSupported, required } from '../../validation/field.js';
import type { FieldError } from '../../validation/types.js';
import { isObj, objects } from './podtemplate-defaults.js';
import { quantityValue } from './quantity.js';

type Obj = Record<string, unknown>;

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

/** A defaulted enum field: Required when empty, else one of `values` (kube's validatePullPolicy and the like). */
function oneOf(value: unknown, path: string, values: string[]): FieldError[] {
  if (typeof value !== 'string' || value === '') return [required(path)];
  return values.includes(value) ? [] : [notSupported(path, value, values)];
}
const SCHEMES = ['HTTP', 'HTTPS'];

/** apimachinery's IsNegativeErrorMsg check (ValidateNonnegativeField). */
export function nonNegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** validation.IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** validation.IsValidPortName (an IANA_SVC_NAME). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** ValidatePortNumOrName: an int-or-string port. */
export function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  return [];
}

/** validation.IsRelaxedEnvVarName: printable ASCII but `=`. */
function isRelaxedEnvVarName(name: string): string[] {
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c > 0x7e || ch === '=') return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
  }
  return [];
}

function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objects(env).forEach((ev, i) => {
    const p = `${path}[${i}]`;
    const name = typeof ev.name === 'string' ? ev.name : '';
    if (name === '') errs.push(required(`${p}.name`));
    else for (const m of isRelaxedEnvVarName(name)) errs.push(invalid(`${p}.name`, name, m));
    if (isObj(ev.valueFrom)) {
      const from = ev.valueFrom;
      const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'].filter((k) => isObj(from[k]));
      if (sources.length === 0) errs.push(invalid(`${p}.valueFrom`, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
      else if (typeof ev.value === 'string' && ev.value !== '') errs.push(invalid(`${p}.valueFrom`, '', 'may not be specified when `value` is not empty'));
      else if (sources.length > 1) errs.push(invalid(`${p}.valueFrom`, '', 'may not have more than one field specified at a time'));
    }
  });
  return errs;
}

function validatePorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(ports).forEach((port, i) => {
    const p = `${path}[${i}]`;
    if (typeof port.name === 'string' && port.name !== '') {
      const msgs = isValidPortName(port.name);
      if (msgs.length > 0) for (const m of msgs) errs.push(invalid(`${p}.name`, port.name, m));
      else if (names.has(port.name)) errs.push(duplicate(`${p}.name`, port.name));
      else names.add(port.name);
    }
    const cp = typeof port.containerPort === 'number' ? port.containerPort : 0;
    if (cp === 0) errs.push(required(`${p}.containerPort`));
    else for (const m of isValidPortNum(cp)) errs.push(invalid(`${p}.containerPort`, cp, m));
    if (typeof port.hostPort === 'number' && port.hostPort !== 0) for (const m of isValidPortNum(port.hostPort)) errs.push(invalid(`${p}.hostPort`, port.hostPort, m));
    if (typeof port.protocol !== 'string' || port.protocol === '') errs.push(required(`${p}.protocol`));
    else if (!PROTOCOLS.includes(port.protocol)) errs.push(notSupported(`${p}.protocol`, port.protocol, PROTOCOLS));
  });
  return errs;
}

function validateVolumeMounts(mounts: unknown, volumes: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  objects(mounts).forEach((m, i) => {
    const p = `${path}[${i}]`;
    const name = typeof m.name === 'string' ? m.name : '';
    const mountPath = typeof m.mountPath === 'string' ? m.mountPath : '';
    if (name === '') errs.push(required(`${p}.name`));
    if (!volumes.has(name)) errs.push(notFound(`${p}.name`, name));
    if (mountPath === '') errs.push(required(`${p}.mountPath`));
    if (mountPoints.has(mountPath)) errs.push(invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
  });
  return errs;
}

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;

/** validateProbeHandler / validateHandler: exactly one handler, each checked. */
function validateHandler(handler: Obj, path: string, kinds: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    const h = handler[kind];
    if (!isObj(h)) continue;
    if (count > 0) {
      errs.push(forbidden(`${path}.${kind}`, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    const p = `${path}.${kind}`;
    if (kind === 'exec' && !(Array.isArray(h.command) && h.command.length > 0)) errs.push(required(`${p}.command`));
    if (kind === 'httpGet') {
      if (typeof h.path !== 'string' || h.path === '') errs.push(required(`${p}.path`));
      errs.push(...validatePortNumOrName(h.port, `${p}.port`));
      if (typeof h.scheme === 'string' && !SCHEMES.includes(h.scheme)) errs.push(notSupported(`${p}.scheme`, h.scheme, SCHEMES));
    }
    if (kind === 'tcpSocket') errs.push(...validatePortNumOrName(h.port, `${p}.port`));
    if (kind === 'grpc' && typeof h.port === 'number') for (const m of isValidPortNum(h.port)) errs.push(invalid(`${p}.port`, h.port, m));
  }
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

function validateProbe(probe: unknown, path: string, kind: 'liveness' | 'readiness' | 'startup'): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = validateHandler(probe, path, HANDLERS);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) errs.push(...nonNegative(probe[f], `${path}.${f}`));
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0) errs.push(invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  if (kind === 'readiness' && grace !== undefined && grace !== null) errs.push(invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must not be set for readinessProbes'));
  if (kind !== 'readiness' && probe.successThreshold !== 1) errs.push(invalid(`${path}.successThreshold`, probe.successThreshold ?? 0, 'must be 1'));
  return errs;
}

function validateLifecycle(lifecycle: unknown, path: string): FieldError[] {
  if (!isObj(lifecycle)) return [];
  return (['postStart', 'preStop'] as const).flatMap((hook) => (isObj(lifecycle[hook]) ? validateHandler(lifecycle[hook], `${path}.${hook}`, [...HANDLERS.filter((h) => h !== 'grpc'), 'sleep']) : []));
}

/** IsOvercommitAllowed: native resources (no '/', or under kubernetes.io/) but hugepages-*. */
function isOvercommitAllowed(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return native && !name.startsWith('hugepages-');
}

/** A quantity as the message prints it (kube prints Quantity.String(); here the text as written). */
const quantityText = (q: unknown): string => String(q);

/**
 * ValidateContainerResourceRequirements' quantity rules: every limit and request is not negative
 * (ValidateNonnegativeQuantity); a request is at most its limit, and equal to it for a resource
 * that cannot be overcommitted (extended resources, hugepages), which must have a limit. Not
 * checked here: resource names and integer-valued resources.
 */
function validateResources(resources: unknown, path: string): FieldError[] {
  if (!isObj(resources)) return [];
  const errs: FieldError[] = [];
  const limits = isObj(resources.limits) ? resources.limits : {};
  const requests = isObj(resources.requests) ? resources.requests : {};
  const negative = (q: unknown, p: string) => {
    const v = quantityValue(q);
    if (v !== undefined && v < 0) errs.push(invalid(p, quantityText(q), 'must be greater than or equal to 0'));
  };
  for (const [name, q] of Object.entries(limits)) negative(q, `${path}.limits[${name}]`);
  for (const [name, q] of Object.entries(requests)) {
    negative(q, `${path}.requests[${name}]`);
    const overcommit = isOvercommitAllowed(name);
    if (Object.prototype.hasOwnProperty.call(limits, name)) {
      const request = quantityValue(q);
      const limit = quantityValue(limits[name]);
      if (request === undefined || limit === undefined) continue;
      if (!overcommit && request !== limit) errs.push(invalid(`${path}.requests`, quantityText(q), `must be equal to ${name} limit of ${quantityText(limits[name])}`));
      else if (request > limit) errs.push(invalid(`${path}.requests`, quantityText(q), `must be less than or equal to ${name} limit of ${quantityText(limits[name])}`));
    } else if (!overcommit) {
      errs.push(required(`${path}.limits`, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}

/** validateContainerCommon: what every kind of container is checked for. */
function validateContainerCommon(c: Obj, volumes: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof c.name === 'string' ? c.name : '';
  if (name === '') errs.push(required(`${path}.name`));
  else for (const m of isDNS1123Label(name)) errs.push(invalid(`${path}.name`, name, m));
  const image = typeof c.image === 'string' ? c.image : '';
  if (image === '') errs.push(required(`${path}.image`));
  errs.push(...oneOf(c.terminationMessagePolicy, `${path}.terminationMessagePolicy`, TERMINATION_MESSAGE_POLICIES));
  errs.push(...validatePorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`));
  errs.push(...validateVolumeMounts(c.volumeMounts, volumes, `${path}.volumeMounts`));
  errs.push(...oneOf(c.imagePullPolicy, `${path}.imagePullPolicy`, PULL_POLICIES));
  errs.push(...validateResources(c.resources, `${path}.resources`));
  return errs;
}

/**
 * validateContainers + validateInitContainers: regular containers' names are unique among
 * themselves; an init container's name must differ from every regular and earlier init container
 * (reported on the init container).
 */
export function validateContainers(spec: Obj, volumes: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const containers = objects(spec.containers);
  if (containers.length === 0) errs.push(required(`${path}.containers`));
  const names = new Set<string>();
  const nameOf = (c: Obj) => (typeof c.name === 'string' ? c.name : '');
  containers.forEach((c, i) => {
    const p = `${path}.containers[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, p));
    if (names.has(nameOf(c))) errs.push(duplicate(`${p}.name`, nameOf(c)));
    else names.add(nameOf(c));
    errs.push(...validateLifecycle(c.lifecycle, `${p}.lifecycle`));
    errs.push(...validateProbe(c.livenessProbe, `${p}.livenessProbe`, 'liveness'));
    errs.push(...validateProbe(c.readinessProbe, `${p}.readinessProbe`, 'readiness'));
    errs.push(...validateProbe(c.startupProbe, `${p}.startupProbe`, 'startup'));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
  });
  objects(spec.initContainers).forEach((c, i) => {
    const p = `${path}.initContainers[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, p));
    if (names.has(nameOf(c))) errs.push(duplicate(`${p}.name`, nameOf(c)));
    else if (nameOf(c) !== '') names.add(nameOf(c));
    const restartable = c.restartPolicy === 'Always';
    if (c.restartPolicy !== undefined && c.restartPolicy !== null && !restartable) errs.push(notSupported(`${p}.restartPolicy`, c.restartPolicy, ['Always']));
    if (restartable) {
      errs.push(...validateLifecycle(c.lifecycle, `${p}.lifecycle`));
      errs.push(...validateProbe(c.livenessProbe, `${p}.livenessProbe`, 'liveness'));
      errs.push(...validateProbe(c.readinessProbe, `${p}.readinessProbe`, 'readiness'));
      errs.push(...validateProbe(c.startupProbe, `${p}.startupProbe`, 'startup'));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[f] !== undefined && c[f] !== null) errs.push(forbidden(`${p}.${f}`, 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}
