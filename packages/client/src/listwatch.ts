/**
 * What the pager and the reflector need of a resource: one list and one watch call (client-go's
 * cache.ListerWatcher). ResourceClient is one; the reflector and pager depend on this interface
 * instead of on ResourceClient, whose resumable watch is built on the reflector, so that
 * resource.ts → reflector.ts → pager.ts runs one way.
 */
import type { APIObject, KubeList, WatchEvent } from '../../../runtime/api/meta.js';
import type { ListOptions, WatchOptions } from './types.js';

export interface ListerWatcher<T extends APIObject> {
  list(opts?: ListOptions): Promise<KubeList<T>>;
  /** Events until the server ends the watch; an ERROR event is thrown (410 Expired → isGone). */
  watch(opts?: WatchOptions): AsyncIterable<WatchEvent<T>>;
}
