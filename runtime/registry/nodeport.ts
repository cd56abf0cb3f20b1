/**
 * NodePort allocation for core/v1 Services of type NodePort and LoadBalancer from a port range
 * (kube-apiserver's --service-node-port-range, 30000-32767 by default), as kube's portallocator
 * does: a requested port must be in the range and free; otherwise a port is picked at random
 * above the static band (kube's calculateRangeOffset for ports: size/32, between 16 and 128) and
 * from the band only when the rest is full. Each port is a reservation created only if absent
 * (`<root>/servicenodeports/<port>`, reservations.ts), so replicas never share one; it is released
 * when the Service is deleted or its create fails. Errors are kube's, on
 * `spec.ports[i].nodePort`.
 */
import type { KubeObject, StatusCause } from '../api/meta.js';
import { newInvalid } from '../api/status.js';
import type { Storage } from '../storage/interface.js';
import { DEFAULT_STORAGE_PREFIX } from '../storage/keys.js';
import { nowTimestamp, randomFree, Reservations, type ServiceRef } from './reservations.js';

export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

export interface PortRange {
  base: number;
  size: number;
  text: string;
}

/** Parses `30000-32767` (or a single port); throws an Error naming the flag's problem otherwise. */
export function parsePortRange(text: string): PortRange {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  const lo = Number(m?.[1]);
  const hi = m?.[2] === undefined ? lo : Number(m[2]);
  if (!m || lo < 1 || hi > 65535 || hi < lo) throw new Error(`invalid --service-node-port-range ${JSON.stringify(text)}: a port range such as 30000-32767 is required`);
  return { base: lo, size: hi - lo + 1, text: `${lo}-${hi}` };
}

/** kube's calculateRangeOffset for the port allocator. */
export function staticPortBandSize(size: number): number {
  if (size < 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

export interface NodePortAllocatorOptions {
  range: string;
  storage: Storage;
  keyRoot?: string;
  /** The node ports of the stored Service `ref` (empty when it is gone). */
  servicePorts: (ref: ServiceRef) => Promise<number[]>;
  /** The node ports of every stored Service (data written before reservations existed). */
  inUse: () => Promise<Set<number>>;
  random?: () => number;
  staleAfterMs?: number;
}

interface PortSpec {
  nodePort?: number;
}

export class NodePortAllocator {
  private readonly range: PortRange;
  private readonly random: () => number;
  private readonly reservations: Reservations;

  constructor(private readonly opts: NodePortAllocatorOptions) {
    this.range = parsePortRange(opts.range);
    this.random = opts.random ?? Math.random;
    const root = (opts.keyRoot ?? DEFAULT_STORAGE_PREFIX).replace(/\/$/, '');
    this.reservations = new Reservations({
      storage: opts.storage,
      prefix: `${root}/servicenodeports/`,
      objectFor: reservationFor,
      stillHeld: async (ref, port) => (await opts.servicePorts(ref)).includes(Number(port)),
      staleAfterMs: opts.staleAfterMs ?? 60_000,
    });
  }

  /**
   * Gives every port of `ports` a node port: the requested one (checked), or a free one. Mutates
   * `ports`. Returns done(stored): releases what was reserved unless the Service was stored. A
   * dry run reserves nothing. Throws kube's 422 naming `spec.ports[i].nodePort`.
   */
  async allocate(ref: ServiceRef, ports: PortSpec[], dryRun = false): Promise<(stored: boolean) => Promise<void>> {
    const reserved: number[] = [];
    const releaseAll = () => Promise.all(reserved.map((p) => this.reservations.release(String(p), ref))).then(() => undefined);
    try {
      const [held, listed] = await Promise.all([this.opts.inUse(), this.reservations.list()]);
      const used = new Set<number>([...held, ...listed.map(Number)]);
      for (const [i, port] of ports.entries()) {
        const fail = (value: number, detail: string) =>
          newInvalid({ group: '', kind: 'Service' }, ref.name, [{ reason: 'FieldValueInvalid', field: `spec.ports[${i}].nodePort`, message: `Invalid value: ${value}: ${detail}` } as StatusCause]);
        const requested = typeof port.nodePort === 'number' && port.nodePort !== 0 ? port.nodePort : undefined;
        if (requested !== undefined) {
          if (requested < this.range.base || requested >= this.range.base + this.range.size) {
            throw fail(requested, `provided port is not in the valid range. The range of valid ports is ${this.range.text}`);
          }
          const ok = !held.has(requested) && !reserved.includes(requested) && (dryRun ? await this.reservations.available(String(requested)) : await this.reservations.reserve(String(requested), ref));
          if (!ok) throw fail(requested, 'provided port is already allocated');
          if (!dryRun) reserved.push(requested);
          used.add(requested);
          continue;
        }
        const picked = await this.pick(ref, used, dryRun);
        if (picked === undefined) throw fail(0, 'range is full');
        port.nodePort = picked;
        if (!dryRun) reserved.push(picked);
        used.add(picked);
      }
    } catch (err) {
      await releaseAll();
      throw err;
    }
    return async (stored) => (stored ? undefined : releaseAll());
  }

  /** Releases the node ports of a deleted Service. */
  async release(ref: ServiceRef, ports: PortSpec[]): Promise<void> {
    for (const p of ports) if (typeof p.nodePort === 'number' && p.nodePort !== 0) await this.reservations.release(String(p.nodePort), ref);
  }

  private async pick(ref: ServiceRef, used: Set<number>, dryRun: boolean): Promise<number | undefined> {
    const first = this.range.base;
    const last = this.range.base + this.range.size - 1;
    const lowerEnd = Math.min(first + staticPortBandSize(this.range.size), last + 1);
    const free = (n: number) => !used.has(n);
    for (;;) {
      const n = randomFree(lowerEnd, last, this.random, free) ?? randomFree(first, lowerEnd - 1, this.random, free);
      if (n === undefined) return undefined;
      if (dryRun || (await this.reservations.reserve(String(n), ref))) return n;
      used.add(n);
    }
  }
}

function reservationFor(port: string, ref: ServiceRef): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ServiceNodePortReservation',
    metadata: { name: port, creationTimestamp: nowTimestamp() },
    spec: { parentRef: { group: '', resource: 'services', namespace: ref.namespace, name: ref.name } },
  };
}
