/**
 * ClusterIP allocation for core/v1 Services from a CIDR (kube-apiserver's
 * --service-cluster-ip-range, 10.0.0.0/24 by default), as kube's IPAddress-based allocator does
 * (pkg/registry/core/service/ipallocator, GA in 1.33):
 *
 * - Every allocated address is one reservation object stored at `<root>/ipaddresses/<ip>`, shaped
 *   like networking.k8s.io/v1 IPAddress (spec.parentRef names the Service). It is created only if
 *   absent, so two replicas on one storage never hand out the same address: the loser of the
 *   create gets KeyExists and picks again. The addresses of stored Services count as used too, so
 *   data written before reservations existed is respected.
 * - A requested address must be in the range and free. Otherwise an address is picked at random
 *   from the upper part of the range; the lower band (kube's calculateRangeOffset: size/16,
 *   between 16 and 256 addresses) is kept for requested (static) addresses and used for dynamic
 *   ones only when the upper part is full. The network address, the first host (the
 *   default/kubernetes Service's) and the broadcast address are never picked.
 * - A reservation is released when its Service is deleted or a create fails; one whose Service is
 *   gone (or holds another address) and that is older than `staleAfterMs` is taken over with a
 *   resourceVersion precondition (kube's repair controller's job), so a crash leaks nothing for long.
 *
 * Addresses are compared by value, not by spelling: a Service may ask for `10.0.0.077`,
 * `10.0.0.0077` or `::ffff:10.0.0.77` (Go's sloppy parse reads each as 10.0.0.77, and kube keeps
 * the spelling with a warning), which is the same address as `10.0.0.77`, so reservations are keyed, and stored Services' addresses
 * compared, in canonical form (kube names its IPAddress objects by the parsed address).
 *
 * IPv4 only.
 */
import { newInvalid } from '../api/status.js';
import type { KubeObject } from '../api/meta.js';
import type { Storage } from '../storage/interface.js';
import { DEFAULT_STORAGE_PREFIX } from '../storage/keys.js';
import { parseIPSloppy, to4 } from '../validation/ip.js';
import { nowTimestamp, randomFree, Reservations, type ServiceRef } from './reservations.js';

export type { ServiceRef } from './reservations.js';

export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';

interface CIDR {
  base: number;
  size: number;
  text: string;
}

/**
 * An IPv4 address as a number, read as kube reads a Service's cluster IP (netutils.ParseIPSloppy,
 * then To4): an octet may have leading zeros and any number of digits (`10.0.0.0077`), and an
 * IPv4-mapped IPv6 address is its IPv4 address (`::ffff:10.0.0.77`); undefined for anything else.
 */
export function parseIPv4(ip: string): number | undefined {
  const bytes = parseIPSloppy(ip);
  const v4 = bytes && to4(bytes);
  return v4 === undefined ? undefined : v4.reduce((n, b) => n * 256 + b, 0);
}

export const formatIPv4 = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** The canonical spelling of an IPv4 address (net.IP.String: leading zeros dropped, IPv4-mapped IPv6 as IPv4); other text as it is. */
export function canonicalIPv4(ip: string): string {
  const n = parseIPv4(ip);
  return n === undefined ? ip : formatIPv4(n);
}

/** Parses an IPv4 CIDR; throws an Error naming the flag's problem otherwise. */
export function parseServiceCIDR(text: string): CIDR {
  const [ip = '', bits = ''] = text.split('/');
  // The flag is dotted IPv4 (an IPv6 form would change what the prefix counts).
  const addr = ip.includes(':') ? undefined : parseIPv4(ip);
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

/** kube's calculateRangeOffset: the size of the lower band kept for static addresses. */
export function staticBandSize(rangeSize: number): number {
  if (rangeSize < 16) return 0;
  return Math.min(Math.max(16, Math.floor(rangeSize / 16)), 256);
}

export interface ClusterIPAllocatorOptions {
  range: string;
  storage: Storage;
  keyRoot?: string;
  /** The cluster IPs of the stored Services. */
  inUse: () => Promise<Set<string>>;
  /** The stored Service's spec.clusterIP, undefined when there is no such Service. */
  serviceIP: (ref: ServiceRef) => Promise<string | undefined>;
  /** [0, 1); Math.random by default. Tests pass a seeded one to be deterministic. */
  random?: () => number;
  /** A reservation without its Service is taken over after this long (default 60 s). */
  staleAfterMs?: number;
}

export interface Allocation {
  ip: string;
  /** Called once the create finished: keeps the reservation when stored, releases it otherwise. */
  done: (stored: boolean) => Promise<void>;
}

const NO_ALLOCATION: Omit<Allocation, 'ip'> = { done: async () => undefined };

export class ClusterIPAllocator {
  private readonly cidr: CIDR;
  private readonly random: () => number;
  private readonly reservations: Reservations;

  constructor(private readonly opts: ClusterIPAllocatorOptions) {
    this.cidr = parseServiceCIDR(opts.range);
    const root = (opts.keyRoot ?? DEFAULT_STORAGE_PREFIX).replace(/\/$/, '');
    this.random = opts.random ?? Math.random;
    this.reservations = new Reservations({
      storage: opts.storage,
      prefix: `${root}/ipaddresses/`,
      objectFor: reservationFor,
      stillHeld: async (ref, ip) => {
        const held = await opts.serviceIP(ref);
        return held !== undefined && canonicalIPv4(held) === ip;
      },
      staleAfterMs: opts.staleAfterMs ?? 60_000,
    });
  }

  /**
   * Allocates `requested` (when given) or a free address for the Service `ref`. A dry run checks
   * and picks without reserving. Throws kube's 422 for an address outside the range or already
   * allocated, and when the range is full.
   */
  async allocate(ref: ServiceRef, requested: string | undefined, dryRun = false): Promise<Allocation> {
    const fail = (detail: string, value: string) =>
      newInvalid({ group: '', kind: 'Service' }, ref.name, [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs', message: `Invalid value: []string{${JSON.stringify(value)}}: ${detail}` }]);
    if (requested) {
      if (!this.inRange(requested)) {
        throw fail(`failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.cidr.text}`, requested);
      }
      // Reserved and compared in canonical form; the Service keeps the spelling it asked for.
      const ip = canonicalIPv4(requested);
      // Only a stored Service refuses outright; a reservation may be stale, which reserve() decides.
      const held = await this.heldIPs();
      if (held.has(ip) || !(await this.reserveOrCheck(ip, ref, dryRun))) throw fail(`failed to allocate IP ${requested}: provided IP is already allocated`, requested);
      return dryRun ? { ip: requested, ...NO_ALLOCATION } : { ip: requested, done: this.allocation(ip, ref).done };
    }
    // As kube's iterator: a candidate whose create lost a race counts as used, and the next one is tried.
    const [held, reserved] = await Promise.all([this.heldIPs(), this.reservations.list()]);
    const used = new Set([...held, ...reserved]);
    for (let ip = this.pickFree(used); ip; ip = this.pickFree(used)) {
      if (dryRun) return { ip, ...NO_ALLOCATION };
      if (await this.reservations.reserve(ip, ref)) return this.allocation(ip, ref);
      used.add(ip);
    }
    // Full: reservations no Service holds may be leaked ones old enough to take over.
    for (const ip of reserved) {
      if (this.inRange(ip) && !held.has(ip) && (await this.reserveOrCheck(ip, ref, dryRun))) return dryRun ? { ip, ...NO_ALLOCATION } : this.allocation(ip, ref);
    }
    throw fail('failed to allocate IP: range is full', '');
  }

  /** Releases ip when the reservation names ref (a Service deleted, or its address given back). */
  release(ip: string, ref: ServiceRef): Promise<void> {
    return this.reservations.release(canonicalIPv4(ip), ref);
  }

  /** The stored Services' addresses, canonical. */
  private async heldIPs(): Promise<Set<string>> {
    const held = await this.opts.inUse();
    for (const ip of held) {
      if (canonicalIPv4(ip) !== ip) return new Set([...held].map(canonicalIPv4));
    }
    return held;
  }

  private reserveOrCheck(ip: string, ref: ServiceRef, dryRun: boolean): Promise<boolean> {
    return dryRun ? this.reservations.available(ip) : this.reservations.reserve(ip, ref);
  }

  private inRange(ip: string): boolean {
    const n = parseIPv4(ip);
    return n !== undefined && n >= this.cidr.base && n < this.cidr.base + this.cidr.size;
  }

  private allocation(ip: string, ref: ServiceRef): Allocation {
    return { ip, done: async (stored) => (stored ? undefined : this.release(ip, ref)) };
  }

  /** A random free address of the upper part, else of the lower band; undefined when full. */
  private pickFree(used: Set<string>): string | undefined {
    const first = this.cidr.base + 2;
    const last = this.cidr.base + this.cidr.size - 2;
    const lowerEnd = Math.min(this.cidr.base + 1 + staticBandSize(this.cidr.size), last + 1);
    const free = (n: number) => !used.has(formatIPv4(n));
    const n = randomFree(Math.max(first, lowerEnd), last, this.random, free) ?? randomFree(first, Math.min(lowerEnd - 1, last), this.random, free);
    return n === undefined ? undefined : formatIPv4(n);
  }
}

/** The reservation, shaped like kube's networking.k8s.io/v1 IPAddress for a Service. */
function reservationFor(ip: string, ref: ServiceRef): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: {
      name: ip,
      creationTimestamp: nowTimestamp(),
      labels: { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' },
    },
    spec: { parentRef: { group: '', resource: 'services', namespace: ref.namespace, name: ref.name } },
  };
}
