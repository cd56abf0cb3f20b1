/**
 * ResourceClient: typed verbs for one resource, what generated clients instantiate, as client-go's
 * typed clients and dynamic ResourceInterface. Paths as client-go builds them:
 *   core group   /api/v1[/namespaces/<ns>]/<plural>[/<name>[/<subresource>]]
 *   other groups /apis/<group>/<version>[/namespaces/<ns>]/<plural>[/<name>[/<subresource>]]
 * A namespaced resource without a namespace lists and watches across all namespaces; verbs on
 * one object then take the namespace from the object, or fail.
 */
import type { APIObject, KubeList, KubeObject, Status, WatchEvent } from '../../../runtime/api/meta.js';
import { apiVersionOf } from '../../../runtime/api/resource.js';
import { createQuery, deleteOptionsBody, getQuery, listQuery, patchQuery, watchQuery } from './query.js';
import type { RestClient } from './rest.js';
import { watchWithResume, type ResumableWatchOptions } from './reflector.js';
import { isConnectionError } from './retry.js';
import {
  PATCH_CONTENT_TYPES,
  type ApplyOptions,
  type CreateOptions,
  type DeleteCollectionOptions,
  type DeleteOptions,
  type GetOptions,
  type JsonPatchOperation,
  type ListOptions,
  type PatchOptions,
  type PatchType,
  type ResourceInfo,
  type Scale,
  type Subresource,
  type UpdateOptions,
  type WatchOptions,
} from './types.js';
import { refuseRoundedWrite } from './rounded-reads.js';
import { decodeWatchStream } from './watch.js';

export class ResourceClient<T extends APIObject> {
  constructor(
    readonly rest: RestClient,
    readonly resource: ResourceInfo,
    readonly namespace?: string,
  ) {
    if (namespace !== undefined && !resource.namespaced) {
      throw new Error(`${resource.plural} is cluster-scoped; a namespace (${JSON.stringify(namespace)}) cannot be given`);
    }
    if (namespace === '') throw new Error('namespace may not be empty; omit it for all namespaces');
  }

  /** The same resource in another namespace (or, with undefined, all namespaces). */
  inNamespace(namespace: string | undefined): ResourceClient<T> {
    return new ResourceClient<T>(this.rest, this.resource, namespace);
  }

  create(obj: T, opts: CreateOptions = {}): Promise<T> {
    return this.rest.request<T>({
      method: 'POST',
      path: this.collectionPath(this.objectNamespace(obj)),
      query: createQuery(opts),
      body: this.withTypeMeta(obj),
      signal: opts.signal,
    });
  }

  get(name: string, opts: GetOptions = {}): Promise<T> {
    return this.rest.request<T>({ method: 'GET', path: this.itemPath(name), query: getQuery(opts), signal: opts.signal });
  }

  /** Lists in the client's namespace, or all namespaces when it has none. */
  list(opts: ListOptions = {}): Promise<KubeList<T>> {
    return this.rest.request<KubeList<T>>({
      method: 'GET',
      path: this.collectionPath(this.namespace),
      query: listQuery(opts),
      signal: opts.signal,
    });
  }

  update(obj: T, opts: UpdateOptions = {}): Promise<T> {
    return this.put(obj, undefined, opts);
  }

  /** PUT …/status: only the status of obj is written. */
  updateStatus(obj: T, opts: UpdateOptions = {}): Promise<T> {
    return this.put(obj, 'status', opts);
  }

  patch(name: string, patch: unknown, type: PatchType, opts: PatchOptions = {}): Promise<T> {
    return this.rest.request<T>({
      method: 'PATCH',
      path: this.itemPath(name, undefined, opts.subresource),
      query: patchQuery(opts),
      body: patch,
      contentType: PATCH_CONTENT_TYPES[type],
      signal: opts.signal,
    });
  }

  /** RFC 7386 JSON merge patch. */
  mergePatch(name: string, partial: unknown, opts: PatchOptions = {}): Promise<T> {
    return this.patch(name, partial, 'merge', opts);
  }

  /** RFC 6902 JSON patch. */
  jsonPatch(name: string, ops: JsonPatchOperation[], opts: PatchOptions = {}): Promise<T> {
    return this.patch(name, ops, 'json', opts);
  }

  /** Server-side apply of obj (named by its metadata) as opts.fieldManager. */
  apply(obj: T, opts: ApplyOptions): Promise<T> {
    if (!opts?.fieldManager) throw new Error('apply: fieldManager is required for server-side apply');
    refuseRoundedWrite(obj);
    const namespace = this.objectNamespace(obj);
    return this.rest.request<T>({
      method: 'PATCH',
      path: this.itemPath(requireName(obj), namespace, opts.subresource),
      query: patchQuery(opts),
      body: JSON.stringify(this.withTypeMeta(obj)), // JSON is YAML
      contentType: PATCH_CONTENT_TYPES.apply,
      signal: opts.signal,
    });
  }

  /** PATCH …/status with the given strategy: only status changes are kept. */
  patchStatus(name: string, patch: unknown, type: PatchType, opts: Omit<PatchOptions, 'subresource'> = {}): Promise<T> {
    return this.patch(name, patch, type, { ...opts, subresource: 'status' });
  }

  /** Server-side apply of obj's status (the `/status` subresource) as opts.fieldManager. */
  applyStatus(obj: T, opts: Omit<ApplyOptions, 'subresource'>): Promise<T> {
    return this.apply(obj, { ...opts, subresource: 'status' });
  }

  /**
   * Deletes one object. The server answers with the object while finalizers or a grace period
   * hold it, and with a Success Status once it is gone.
   */
  delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    return this.rest.request<T | Status>({
      method: 'DELETE',
      path: this.itemPath(name),
      body: deleteOptionsBody(opts),
      signal: opts.signal,
    });
  }

  /** Deletes every object the list options select, in the client's namespace. */
  deleteCollection(opts: DeleteCollectionOptions = {}): Promise<KubeList<T> | Status> {
    return this.rest.request<KubeList<T> | Status>({
      method: 'DELETE',
      path: this.collectionPath(this.requireNamespace('deleteCollection')),
      query: listQuery(opts),
      body: deleteOptionsBody(opts),
      signal: opts.signal,
    });
  }

  getScale(name: string, opts: GetOptions = {}): Promise<Scale> {
    return this.rest.request<Scale>({ method: 'GET', path: this.itemPath(name, undefined, 'scale'), query: getQuery(opts), signal: opts.signal });
  }

  updateScale(name: string, scale: Scale, opts: UpdateOptions = {}): Promise<Scale> {
    return this.rest.request<Scale>({
      method: 'PUT',
      path: this.itemPath(name, undefined, 'scale'),
      query: createQuery(opts),
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', ...scale },
      signal: opts.signal,
    });
  }

  /** PATCH …/scale (merge or JSON patch of the autoscaling/v1 Scale). */
  patchScale(name: string, patch: unknown, type: Exclude<PatchType, 'apply'>, opts: Omit<PatchOptions, 'subresource'> = {}): Promise<Scale> {
    return this.rest.request<Scale>({
      method: 'PATCH',
      path: this.itemPath(name, undefined, 'scale'),
      query: patchQuery(opts),
      body: patch,
      contentType: PATCH_CONTENT_TYPES[type],
      signal: opts.signal,
    });
  }

  /**
   * The resilient watch (reflector.ts): lists first unless given a resourceVersion, resumes from
   * the last resourceVersion seen after disconnects and server timeouts (with backoff), relists on
   * 410 and yields the difference, and never yields a change twice. Ends when opts.signal aborts.
   */
  watchWithResume(opts: ResumableWatchOptions = {}): AsyncGenerator<WatchEvent<T>, void, undefined> {
    return watchWithResume(this, opts);
  }

  /**
   * Watches the client's namespace (or all namespaces), yielding events as they arrive. The
   * connection opens when iteration starts and closes when it stops. An ERROR event is thrown as
   * StatusError (410 Expired → isGone). Iteration ends quietly when the server ends the watch,
   * when the connection drops mid-stream, or when opts.signal aborts, as client-go's watch
   * channel closes; resuming from the last resourceVersion is the caller's (informer's) job.
   */
  async *watch(opts: WatchOptions = {}): AsyncGenerator<WatchEvent<T>, void, undefined> {
    let response;
    try {
      response = await this.rest.stream({
        method: 'GET',
        path: this.collectionPath(this.namespace),
        query: watchQuery(opts),
        signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal?.aborted) return;
      throw err;
    }
    try {
      yield* decodeWatchStream<T>(response);
    } catch (err) {
      if (opts.signal?.aborted || isConnectionError(err)) return;
      throw err;
    } finally {
      response.destroy();
    }
  }

  /** `/api/v1` or `/apis/<group>/<version>`. */
  get groupVersionPath(): string {
    const { group, version } = this.resource;
    return group ? `/apis/${group}/${version}` : `/api/${version}`;
  }

  collectionPath(namespace: string | undefined): string {
    const ns = this.resource.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    return `${this.groupVersionPath}${ns}/${this.resource.plural}`;
  }

  itemPath(name: string, namespace: string | undefined = this.namespace, subresource?: Subresource): string {
    if (!name) throw new Error(`${this.resource.plural}: resource name may not be empty`);
    if (this.resource.namespaced && !namespace) {
      throw new Error(`${this.resource.plural} "${name}" is namespaced: give the client a namespace`);
    }
    const path = `${this.collectionPath(namespace)}/${encodeURIComponent(name)}`;
    return subresource ? `${path}/${subresource}` : path;
  }

  private put(obj: T, subresource: Subresource | undefined, opts: UpdateOptions): Promise<T> {
    return this.rest.request<T>({
      method: 'PUT',
      path: this.itemPath(requireName(obj), this.objectNamespace(obj), subresource),
      query: createQuery(opts),
      body: this.withTypeMeta(obj),
      signal: opts.signal,
    });
  }

  /** The namespace an object is written to: the client's, else the object's own. */
  private objectNamespace(obj: T): string | undefined {
    if (!this.resource.namespaced) return undefined;
    const namespace = this.namespace ?? obj.metadata?.namespace;
    if (!namespace) {
      throw new Error(`${this.resource.plural} is namespaced: set metadata.namespace or give the client a namespace`);
    }
    return namespace;
  }

  private requireNamespace(verb: string): string | undefined {
    if (this.resource.namespaced && !this.namespace) {
      throw new Error(`${verb} on namespaced ${this.resource.plural} needs a namespace`);
    }
    return this.namespace;
  }

  /** obj with apiVersion and kind filled in when missing, as client-go's encoder sets them. */
  private withTypeMeta(obj: T): T {
    if (obj.apiVersion && obj.kind) return obj;
    const { group, version, kind } = this.resource;
    return { ...obj, apiVersion: obj.apiVersion ?? apiVersionOf(group, version), kind: obj.kind ?? kind };
  }
}

function requireName(obj: APIObject): string {
  const name = obj.metadata?.name;
  if (!name) throw new Error('metadata.name is required');
  return name;
}
