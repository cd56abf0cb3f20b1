/**
 * In-memory stand-ins for the toolkit's clients: a Lease client with resourceVersion checks (409 on
 * a stale update, as the server) and an Event client that records writes.
 */
import { StatusError, newAlreadyExists, newConflict, newNotFound } from '../../../runtime/api/status.js';
import type { APIObject } from '../../../runtime/api/meta.js';
import type { CoreEvent, Lease, LeaseClient } from '../../../packages/client/src/toolkit/index.js';

export class FakeLeases implements LeaseClient {
  lease?: Lease;
  private rv = 0;
  /** When set, every call fails with it (an unreachable server). */
  failure?: Error;
  writes = 0;
  gets = 0;

  async get(name: string): Promise<Lease> {
    this.gets++;
    if (this.failure) throw this.failure;
    if (!this.lease || this.lease.metadata?.name !== name) throw newNotFound({ group: 'coordination.k8s.io', resource: 'leases' }, name);
    return structuredClone(this.lease);
  }

  async create(obj: Lease): Promise<Lease> {
    if (this.failure) throw this.failure;
    if (this.lease) throw newAlreadyExists({ group: 'coordination.k8s.io', resource: 'leases' }, obj.metadata?.name ?? '');
    this.writes++;
    this.lease = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    return structuredClone(this.lease);
  }

  async update(obj: Lease): Promise<Lease> {
    if (this.failure) throw this.failure;
    if (!this.lease) throw newNotFound({ group: 'coordination.k8s.io', resource: 'leases' }, obj.metadata?.name ?? '');
    if (obj.metadata?.resourceVersion !== this.lease.metadata?.resourceVersion) {
      throw newConflict({ group: 'coordination.k8s.io', resource: 'leases' }, obj.metadata?.name ?? '', 'the object has been modified; please apply your changes to the latest version and try again');
    }
    this.writes++;
    this.lease = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    return structuredClone(this.lease);
  }
}

export class FakeEvents {
  readonly created: CoreEvent[] = [];
  readonly patches: { name: string; patch: Record<string, unknown> }[] = [];
  failNext = 0;

  inNamespace(namespace: string) {
    return {
      create: async (obj: CoreEvent): Promise<APIObject> => {
        if (this.failNext > 0) {
          this.failNext--;
          throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'boom', reason: 'InternalError', code: 500 });
        }
        const stored = { ...obj, metadata: { ...obj.metadata, namespace } };
        this.created.push(stored);
        return stored;
      },
      mergePatch: async (name: string, patch: unknown): Promise<APIObject> => {
        this.patches.push({ name, patch: patch as Record<string, unknown> });
        const ev = this.created.find((e) => e.metadata?.name === name)!;
        Object.assign(ev, patch);
        return ev;
      },
    };
  }
}
