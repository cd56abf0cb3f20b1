/**
 * ClusterIP allocation for core/v1 Services from a CIDR (kube-apiserver's
 * --service-cluster-ip-range, 10.0.0.0/24 by default), as kube's service REST BeginCreate does:
 * a requested address must be in the range and free; otherwise the lowest free address is taken
 * (kube picks at random; the first address, the network address and the broadcast address are
 * never handed out, as kube reserves them). The addresses in use are those of the stored
 * Services plus those allocated by creates still in flight, so concurrent creates in one process
 * never share an address. IPv4 only.
 *
 * Unlike kube, the allocation is not a stored bitmap: replicas of one cluster that create
 * Services at the same moment could pick the same address (README, Kubernetes compatibility).
 */
import { newInvalid } from '../api/status.js';

export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';

interface CIDR {
  base: number;
  size: number;
  text: string;
}

function parseIPv4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const formatIPv4 = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** Parses an IPv4 CIDR; throws an Error naming the flag's problem otherwise. */
export function parseServiceCIDR(text: string): CIDR {
  const [ip = '', bits = ''] = text.split('/');
  const addr = parseIPv4(ip);
  const prefix = Number(bits);
  if (addr === undefined || !/^\d+$/.test(bits) || prefix < 8 || prefix > 30) {
    throw new Error(`invalid --service-cluster-ip-range ${JSON.stringify(text)}: an IPv4 CIDR with a prefix from /8 to /30 is required`);
  }
  const size = 2 ** (32 - prefix);
  return { base: addr - (addr % size), size, text };
}

/** The first host address of the range: kube reserves it for the default/kubernetes Service. */
export function kubernetesServiceIP(range: string): string {
  return formatIPv4(parseServiceCIDR(range).base + 1);
}

export class ClusterIPAllocator {
  private readonly cidr: CIDR;
  private readonly inFlight = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  /** inUse lists the cluster IPs of the stored Services. */
  constructor(
    range: string,
    private readonly inUse: () => Promise<Set<string>>,
  ) {
    this.cidr = parseServiceCIDR(range);
  }

  /**
   * Allocates requested (when given) or a free address for the Service `name`. Call done() once
   * the create finished, stored or not: from then on storage says whether the address is used.
   * Throws kube's 422 for an address outside the range or already allocated, and when the range
   * is full.
   */
  allocate(name: string, requested: string | undefined): Promise<{ ip: string; done: () => void }> {
    const run = this.queue.then(() => this.pick(name, requested));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async pick(name: string, requested: string | undefined): Promise<{ ip: string; done: () => void }> {
    const used = await this.inUse();
    for (const ip of this.inFlight) used.add(ip);
    const fail = (detail: string, value: string) =>
      newInvalid({ group: '', kind: 'Service' }, name, [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs', message: `Invalid value: []string{${JSON.stringify(value)}}: ${detail}` }]);
    let ip: string | undefined;
    if (requested) {
      const n = parseIPv4(requested);
      if (n === undefined || n < this.cidr.base || n >= this.cidr.base + this.cidr.size) {
        throw fail(`failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.cidr.text}`, requested);
      }
      if (used.has(requested)) throw fail(`failed to allocate IP ${requested}: provided IP is already allocated`, requested);
      ip = requested;
    } else {
      // The network address, the first host (kube's reserved default/kubernetes address) and the broadcast address are skipped.
      for (let n = this.cidr.base + 2; n < this.cidr.base + this.cidr.size - 1 && !ip; n++) {
        if (!used.has(formatIPv4(n))) ip = formatIPv4(n);
      }
      if (!ip) throw fail('failed to allocate IP: range is full', '');
    }
    const allocated = ip;
    this.inFlight.add(allocated);
    return { ip: allocated, done: () => this.inFlight.delete(allocated) };
  }
}
