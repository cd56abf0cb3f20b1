/**
 * The extensions server's controllers over CustomResourceDefinitions, run in one serial loop fed
 * by an informer (kube runs them as separate controllers over a shared informer):
 * - naming (NamesAccepted, status.acceptedNames) and establishing (Established), as
 *   naming_controller.go and establishing_controller.go;
 * - serving: a CRD whose names are accepted gets its scopes (crdHandler), an established one its
 *   discovery and OpenAPI entries (discovery controller, OpenAPI controller);
 * - finalizing: a CRD being deleted has every custom resource deleted, then the cleanup
 *   finalizer removed (crd_finalizer.go), so the CRD and its resource go.
 */
import type { KubeObject } from '../api/meta.js';
import { ResourceInformer } from '../controllers/informer.js';
import type { RequestScope } from '../endpoints/handler.js';
import type { Store } from '../registry/store.js';
import type { APIInstaller } from '../server/installer.js';
import { findCondition, isConditionTrue, setCondition } from './conditions.js';
import { acceptedNamesForGroup, addNames, calculateNamesAndConditions, establishedCondition, type NamesInUse } from './naming.js';
import { ServingRegistry } from './serving.js';
import type { ServiceResolver } from '../admission/webhook/client.js';
import { asCRD, CLEANUP_FINALIZER, storageVersionOf, type CRDCondition, type CustomResourceDefinition } from './types.js';

export interface CRDControllerOptions {
  installer: APIInstaller;
  /** The CRD kind's scope (compiled apiextensions.k8s.io/v1 customresourcedefinitions). */
  crdScope: RequestScope;
  log: (line: string) => void;
  /** How long the finalizer waits for custom resources to be gone. Default 60 s, as kube. */
  instanceDeletionTimeoutMs?: number;
  /** Called after the served set changed (a CRD established, changed or removed). */
  onServingChange: () => void;
  /** Resolves conversion webhooks' clientConfig.service. */
  resolveService?: ServiceResolver;
}

const RETRY_MS = 250;
const POLL_MS = 100;

export class CRDController {
  readonly serving: ServingRegistry;
  private readonly crds = new Map<string, CustomResourceDefinition>();
  private readonly informer: ResourceInformer;
  private readonly pending = new Set<string>();
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** CRDs whose custom resources are being deleted; a long cleanup must not hold up the others. */
  private readonly finalizing = new Map<string, Promise<void>>();

  constructor(private readonly opts: CRDControllerOptions) {
    this.serving = new ServingRegistry(opts.installer, opts.log, opts.resolveService);
    const { group, version, plural } = opts.crdScope.definition;
    const store = opts.installer.uncachedStore(group, version, plural) ?? opts.crdScope.store;
    this.informer = new ResourceInformer(store, opts.log);
    this.informer.addHandlers({
      onAdd: (obj) => this.observe(obj),
      onUpdate: (_old, obj) => this.observe(obj),
      onDelete: (obj) => this.forget(obj),
    });
  }

  /** Starts watching; resolves once every CRD in storage has been reconciled (served again after a restart). */
  async start(): Promise<void> {
    this.informer.start();
    await this.informer.synced;
    await this.idle();
  }

  /** Resolves when no reconciliation or cleanup is queued or running. */
  async idle(): Promise<void> {
    while (this.running || this.finalizing.size > 0) {
      if (this.running) await this.running;
      await Promise.all(this.finalizing.values());
    }
  }

  /**
   * Is anything queued, running, finalizing or waiting on a retry timer? A caller that also sees
   * storage's revision unchanged across a turn knows the controllers reached their fixed point.
   */
  busy(): boolean {
    return this.running !== undefined || this.pending.size > 0 || this.finalizing.size > 0 || this.timers.size > 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    await this.informer.stop();
    await this.idle();
    await this.serving.close();
  }

  private observe(obj: KubeObject): void {
    const crd = asCRD(obj);
    const name = crd.metadata.name!;
    const previous = this.crds.get(name);
    this.crds.set(name, crd);
    this.enqueue(name);
    // Accepted names changed: other CRDs of the group may now get (or lose) theirs.
    if (previous && JSON.stringify(previous.status?.acceptedNames) !== JSON.stringify(crd.status?.acceptedNames)) this.enqueueGroup(crd.spec.group, name);
  }

  private forget(obj: KubeObject): void {
    const crd = asCRD(obj);
    this.crds.delete(crd.metadata.name!);
    this.enqueue(crd.metadata.name!);
    this.enqueueGroup(crd.spec?.group, crd.metadata.name!);
  }

  private enqueueGroup(group: string | undefined, except: string): void {
    for (const [name, other] of this.crds) if (name !== except && other.spec?.group === group) this.enqueue(name);
  }

  private enqueue(name: string): void {
    if (this.stopped) return;
    this.pending.add(name);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0 && !this.stopped) {
      const name = this.pending.values().next().value as string;
      this.pending.delete(name);
      try {
        await this.reconcile(name);
      } catch (err) {
        if (this.stopped) return;
        // The CRD went meanwhile; its DELETED event follows.
        if ((err as { code?: unknown }).code === 404) continue;
        this.opts.log(`customresourcedefinition ${name}: ${(err as Error).message}; retrying`);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.enqueue(name);
        }, RETRY_MS);
        timer.unref?.();
        this.timers.add(timer);
      }
    }
  }

  private async reconcile(name: string): Promise<void> {
    const crd = this.crds.get(name);
    if (!crd) {
      if (await this.serving.remove(name)) this.opts.onServingChange();
      return;
    }
    if (crd.metadata.deletionTimestamp) {
      if ((crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) this.startFinalizing(crd);
      else if (await this.serving.ensure(crd)) this.opts.onServingChange();
      return;
    }
    await this.updateNames(crd);
  }

  /** Names taken in the CRD's group: other CRDs' accepted names and the compiled resources'. */
  private namesInUse(crd: CustomResourceDefinition): NamesInUse {
    const used = acceptedNamesForGroup(this.crds.values(), crd.spec.group);
    for (const gv of this.opts.installer.groupVersions()) {
      if (gv.group !== crd.spec.group) continue;
      for (const r of gv.resources) addNames(used, { plural: r.plural, singular: r.singular, shortNames: r.shortNames, kind: r.kind, listKind: r.listKind });
    }
    return used;
  }

  /**
   * Naming, then establishing; the resource is served (from the accepted names) before
   * Established is written, so a client that waits for Established finds it. Writes status when
   * it changes; the informer then brings the written CRD back.
   */
  private async updateNames(crd: CustomResourceDefinition): Promise<void> {
    const next = structuredClone(crd);
    const naming = calculateNamesAndConditions(crd, this.namesInUse(crd));
    next.status ??= {};
    next.status.acceptedNames = naming.acceptedNames;
    setCondition(next, naming.namesAccepted);
    setCondition(next, naming.established);
    // The establishing controller: accepted names make the CRD Established.
    if (naming.namesAccepted.status === 'True' && !isConditionTrue(next, 'Established') && findCondition(crd, 'NamesAccepted')?.status === 'True') {
      setCondition(next, establishedCondition());
    }
    if (isConditionTrue(next, 'NamesAccepted') || isConditionTrue(next, 'Established')) {
      if (await this.serving.ensure(next)) this.opts.onServingChange();
    }
    if (JSON.stringify(next.status) === JSON.stringify(crd.status)) return;
    await this.writeStatus(crd, (status) => {
      status.acceptedNames = next.status!.acceptedNames;
      status.conditions = next.status!.conditions;
    });
  }

  /** A status write through the CRD's status subresource, based on the stored object. */
  private async writeStatus(crd: CustomResourceDefinition, change: (status: NonNullable<CustomResourceDefinition['status']>, current: CustomResourceDefinition) => void): Promise<CustomResourceDefinition> {
    const store = this.opts.crdScope.statusStore ?? this.opts.crdScope.store;
    const written = await store.update(undefined, crd.metadata.name!, {
      updatedObject: (current) => {
        const next = structuredClone(asCRD(current));
        next.status ??= {};
        change(next.status, next);
        return next;
      },
    });
    return asCRD(written);
  }

  private async setTerminating(crd: CustomResourceDefinition, condition: Omit<CRDCondition, 'type'>): Promise<CustomResourceDefinition> {
    return this.writeStatus(crd, (_status, current) => setCondition(current, { type: 'Terminating', ...condition }));
  }

  /** Runs the cleanup of a deleted CRD beside the loop, once at a time per CRD; a failure retries. */
  private startFinalizing(crd: CustomResourceDefinition): void {
    const name = crd.metadata.name!;
    if (this.finalizing.has(name) || this.stopped) return;
    const run = this.finalize(crd)
      .catch((err: unknown) => {
        if (this.stopped || (err as { code?: unknown }).code === 404) return;
        this.opts.log(`customresourcedefinition ${name}: ${(err as Error).message}; retrying`);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.enqueue(name);
        }, RETRY_MS);
        timer.unref?.();
        this.timers.add(timer);
      })
      .finally(() => this.finalizing.delete(name));
    this.finalizing.set(name, run);
  }

  /** crd_finalizer.go sync: delete every custom resource, then drop the cleanup finalizer. */
  private async finalize(crd: CustomResourceDefinition): Promise<void> {
    await this.setTerminating(crd, { status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
    const served = this.serving.get(crd.metadata.name!);
    // The storage version's scope when served (kube's crdInfo.storages[storageVersion]): its
    // objects need no conversion, so a conversion webhook that is down does not block cleanup.
    const scope = served && (served.versions.get(storageVersionOf(crd)?.name ?? '') ?? [...served.versions.values()][0])?.scope;
    if (isConditionTrue(crd, 'Established') && scope) {
      const outcome = await this.deleteInstances(scope.store);
      await this.setTerminating(crd, outcome);
      if (outcome.status === 'True') throw new Error(outcome.message);
    } else {
      await this.setTerminating(crd, { status: 'False', reason: 'NeverEstablished', message: 'resource was never established' });
    }
    await this.opts.crdScope.store.update(undefined, crd.metadata.name!, {
      updatedObject: (current) => {
        const next = structuredClone(current);
        next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
        return next;
      },
    });
  }

  /** deleteInstances: one delete-collection per namespace, then wait until none is left. */
  private async deleteInstances(store: Store): Promise<Omit<CRDCondition, 'type'>> {
    const resource = `${store.definition.plural}.${store.definition.group}`;
    let items: KubeObject[];
    try {
      items = (await store.list(undefined, {})).items;
    } catch (err) {
      return { status: 'True', reason: 'InstanceDeletionFailed', message: `could not list instances: ${(err as Error).message}` };
    }
    const namespaces = new Set(items.map((i) => (store.namespaceScoped ? i.metadata.namespace : undefined)));
    const errors: string[] = [];
    for (const ns of namespaces) {
      try {
        await store.deleteCollection(ns, {});
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    if (errors.length) {
      return { status: 'True', reason: 'InstanceDeletionFailed', message: `could not issue all deletes: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}` };
    }
    const deadline = Date.now() + (this.opts.instanceDeletionTimeoutMs ?? 60_000);
    for (;;) {
      const left = (await store.list(undefined, {})).items.length;
      if (left === 0) break;
      if (Date.now() >= deadline || this.stopped) {
        this.opts.log(`${resource} waiting for ${left} items to be removed`);
        return { status: 'True', reason: 'InstanceDeletionCheck', message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition' };
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return { status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
  }
}
