/**
 * Option types to URL query parameters and DeleteOptions bodies, with the parameter names
 * kube-apiserver reads. dryRun is sent as `dryRun=All`, the only value the server accepts.
 */
import type { Query } from './rest.js';
import type { CreateOptions, DeleteOptions, GetOptions, ListOptions, PatchOptions, WatchOptions } from './types.js';

const dryRun = (on?: boolean) => (on ? 'All' : undefined);

export function createQuery(opts: CreateOptions = {}): Query {
  return { dryRun: dryRun(opts.dryRun), fieldManager: opts.fieldManager, fieldValidation: opts.fieldValidation };
}

export function getQuery(opts: GetOptions = {}): Query {
  return { resourceVersion: opts.resourceVersion };
}

export function listQuery(opts: ListOptions = {}): Query {
  return {
    labelSelector: opts.labelSelector,
    fieldSelector: opts.fieldSelector,
    limit: opts.limit,
    continue: opts.continue,
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    timeoutSeconds: opts.timeoutSeconds,
  };
}

export function patchQuery(opts: PatchOptions = {}): Query {
  return {
    dryRun: dryRun(opts.dryRun),
    fieldManager: opts.fieldManager,
    force: opts.force,
    fieldValidation: opts.fieldValidation,
  };
}

export function watchQuery(opts: WatchOptions = {}): Query {
  return {
    watch: true,
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    labelSelector: opts.labelSelector,
    fieldSelector: opts.fieldSelector,
    allowWatchBookmarks: opts.allowWatchBookmarks,
    sendInitialEvents: opts.sendInitialEvents,
    timeoutSeconds: opts.timeoutSeconds,
  };
}

/** The metav1.DeleteOptions request body. */
export function deleteOptionsBody(opts: DeleteOptions = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
  if (opts.propagationPolicy !== undefined) body.propagationPolicy = opts.propagationPolicy;
  if (opts.preconditions !== undefined) body.preconditions = opts.preconditions;
  if (opts.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = opts.gracePeriodSeconds;
  if (opts.dryRun) body.dryRun = ['All'];
  return body;
}
