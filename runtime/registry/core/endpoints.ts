/**
 * kube's endpoints strategy (pkg/registry/core/endpoint, validation.ValidateEndpoints) over the
 * generic one: each subset names addresses; an address is an IP (Go's sloppy parse), its hostname
 * a DNS-1123 label, its nodeName a DNS subdomain; a port's name is a DNS-1123 label and required
 * when the subset has several ports, its appProtocol a qualified name. (Port range and protocol
 * are the schema's.)
 *
 * Special addresses (kube's ValidateEndpointIP, CVE-2021-25737): the unspecified address and the
 * link-local unicast (169.254.0.0/16, fe80::/10: cloud metadata services) and link-local
 * multicast ranges are refused, with kube's messages. One difference: loopback addresses are
 * accepted. kgen runs its aggregated servers and webhooks on one host, and a selector-less
 * Service with Endpoints at 127.0.0.1 is how they are reached (README, "API aggregation"); the
 * control plane's own `default/kubernetes` Endpoints name 127.0.0.1 too. Only cluster admins
 * write Endpoints (edit and admin do not since kube 1.22, CVE-2021-25740).
 */
import type { KubeObject } from '../../api/meta.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, toStatusCauses } from '../../validation/index.js';
import { invalid, required } from '../../validation/field.js';
import { ipWarnings, isLinkLocalMulticast, isLinkLocalUnicast, isUnspecified, parseIPSloppy } from '../../validation/ip.js';
import type { FieldError } from '../../validation/types.js';
import { hasWrongTypes, type RESTStrategy } from '../strategy.js';
import { isObj } from './podtemplate-defaults.js';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** kube's ValidateEndpointIP, less the loopback range (see above). */
export function validateEndpointIP(ip: string, path: string): FieldError[] {
  const bytes = parseIPSloppy(ip);
  if (!bytes) return [invalid(path, ip, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (isUnspecified(bytes)) errs.push(invalid(path, ip, `may not be unspecified (${ip})`));
  if (isLinkLocalUnicast(bytes)) errs.push(invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (isLinkLocalMulticast(bytes)) errs.push(invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function validateAddress(address: unknown, path: string): FieldError[] {
  if (!isObj(address)) return [];
  const ip = str(address.ip);
  const errs: FieldError[] = [];
  // validation.IsValidIP, then ValidateEndpointIP (which repeats the syntax error, as kube does).
  if (!parseIPSloppy(ip)) errs.push(invalid(`${path}.ip`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  const hostname = str(address.hostname);
  if (hostname !== '') for (const msg of isDNS1123Label(hostname)) errs.push(invalid(`${path}.hostname`, hostname, msg));
  if (typeof address.nodeName === 'string') for (const msg of isDNS1123Subdomain(address.nodeName)) errs.push(invalid(`${path}.nodeName`, address.nodeName, msg));
  errs.push(...validateEndpointIP(ip, `${path}.ip`));
  return errs;
}

function validatePort(port: unknown, requireName: boolean, path: string): FieldError[] {
  if (!isObj(port)) return [];
  const errs: FieldError[] = [];
  const name = str(port.name);
  if (requireName && name === '') errs.push(required(`${path}.name`));
  else if (name !== '') for (const msg of isDNS1123Label(name)) errs.push(invalid(`${path}.name`, name, msg));
  if (typeof port.appProtocol === 'string') for (const msg of isQualifiedName(port.appProtocol)) errs.push(invalid(`${path}.appProtocol`, port.appProtocol, msg));
  return errs;
}

/** validateEndpointSubsets. */
export function validateEndpoints(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  list(obj.subsets).forEach((subset, i) => {
    if (!isObj(subset)) return;
    const path = `subsets[${i}]`;
    const addresses = list(subset.addresses);
    const notReady = list(subset.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, `${path}.addresses[${j}]`)));
    notReady.forEach((a, j) => errs.push(...validateAddress(a, `${path}.notReadyAddresses[${j}]`)));
    const ports = list(subset.ports);
    ports.forEach((p, j) => errs.push(...validatePort(p, ports.length > 1, `${path}.ports[${j}]`)));
  });
  return errs;
}

/** The label kube's endpoints controller puts on the Endpoints it writes, and its value. */
const MANAGED_BY = 'endpoints.kubernetes.io/managed-by';
const ENDPOINTS_CONTROLLER = 'endpoint-controller';

/**
 * kube's endpointsWarnings (1.33): an address IP Go's sloppy parse takes but not in standard form
 * (utilvalidation.GetWarningsForIP). None for the endpoints controller's own writes, which kube
 * skips by their managed-by label.
 */
export function endpointsWarnings(obj: KubeObject): string[] {
  const labels = obj.metadata.labels;
  if (labels !== undefined && labels !== null && labels[MANAGED_BY] === ENDPOINTS_CONTROLLER) return [];
  const warnings: string[] = [];
  list(obj.subsets).forEach((subset, i) => {
    if (!isObj(subset)) return;
    for (const field of ['addresses', 'notReadyAddresses']) {
      list(subset[field]).forEach((a, j) => {
        if (isObj(a)) warnings.push(...ipWarnings(`subsets[${i}].${field}[${j}].ip`, str(a.ip)));
      });
    }
  });
  return warnings;
}

export function withEndpointsStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    validate(obj) {
      const causes = base.validate(obj);
      if (hasWrongTypes(causes)) return causes;
      return [...causes, ...toStatusCauses(validateEndpoints(obj))];
    },
    validateUpdate(obj, old) {
      const causes = base.validateUpdate(obj, old);
      if (hasWrongTypes(causes)) return causes;
      return [...causes, ...toStatusCauses(validateEndpoints(obj))];
    },
    warningsOnCreate: endpointsWarnings,
    warningsOnUpdate: (obj) => endpointsWarnings(obj),
  };
}
