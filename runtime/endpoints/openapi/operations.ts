/**
 * The REST operations kube-apiserver serves for a resource, built from its ResourceDefinition in
 * one neutral form that the OpenAPI v3 and Swagger 2.0 renderers print: the generator for
 * compiled kinds, apiextensions for CRDs. Operation ids follow kube-apiserver's
 * (`listWidgetsExampleComV1NamespacedWidget`, `patchCoreV1NamespaceStatus`, …).
 */
import type { ResourceDefinition } from '../../api/resource.js';
import { META } from './meta-schemas.js';
import { groupToPascal } from './names.js';

export type Action = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection' | 'connect';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface QueryParam {
  name: string;
  description: string;
  type: 'string' | 'integer' | 'boolean';
}

export interface Operation {
  path: string;
  method: Method;
  operationId: string;
  action: Action;
  description: string;
  gvk: { group: string; version: string; kind: string };
  query: QueryParam[];
  /** Component name of the request body schema, if any. */
  body?: string;
  /** Patch content types, for patch operations. */
  patchTypes?: string[];
  /** Status code → component name of the response schema. */
  responses: Record<string, string>;
  /** A custom subresource's answer: any content (an object, a stream of text, a WebSocket), typed `string` as kube types pods/log and pods/exec. */
  opaqueResponse?: boolean;
  /** Path parameters, in order. */
  pathParams: { name: string; description: string }[];
  tag: string;
  /** An operation of a custom resource (served JSON and YAML only, as kube serves CRDs). */
  customResource?: boolean;
}

const q = (name: string, type: QueryParam['type'], description: string): QueryParam => ({ name, type, description });

export const PARAMS = {
  pretty: q('pretty', 'string', "If 'true', then the output is pretty printed."),
  dryRun: q('dryRun', 'string', 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed'),
  fieldManager: q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.'),
  fieldValidation: q('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.'),
  force: q('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.'),
  allowWatchBookmarks: q('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion.'),
  continue: q('continue', 'string', 'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue).'),
  fieldSelector: q('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  labelSelector: q('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  limit: q('limit', 'integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.'),
  resourceVersion: q('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details. Defaults to unset'),
  resourceVersionMatch: q('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set.'),
  sendInitialEvents: q('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection.'),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  watch: q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
  gracePeriodSeconds: q('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately.'),
  propagationPolicy: q('propagationPolicy', 'string', "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground."),
} as const;

const LIST = [PARAMS.allowWatchBookmarks, PARAMS.continue, PARAMS.fieldSelector, PARAMS.labelSelector, PARAMS.limit, PARAMS.pretty, PARAMS.resourceVersion, PARAMS.resourceVersionMatch, PARAMS.sendInitialEvents, PARAMS.timeoutSeconds, PARAMS.watch];
const WRITE = [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation, PARAMS.pretty];
const PATCH = [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation, PARAMS.force, PARAMS.pretty];
const DELETE = [PARAMS.dryRun, PARAMS.gracePeriodSeconds, PARAMS.pretty, PARAMS.propagationPolicy];
const DELETE_COLLECTION = [PARAMS.continue, PARAMS.dryRun, PARAMS.fieldSelector, PARAMS.gracePeriodSeconds, PARAMS.labelSelector, PARAMS.limit, PARAMS.pretty, PARAMS.propagationPolicy, PARAMS.resourceVersion, PARAMS.resourceVersionMatch, PARAMS.sendInitialEvents, PARAMS.timeoutSeconds];

/** A CustomResourceDefinition's patch types: no strategic merge, as kube-apiserver serves CRDs. */
export const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
/**
 * A compiled kind's patch types, in kube's order: strategic merge too, as kube-apiserver for its
 * built-in types and aggregated API servers for their Go types. kubectl then computes
 * client-side apply patches as strategic merge, from the x-kubernetes-patch-* extensions.
 */
export const COMPILED_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

export function basePath(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

/**
 * Every operation of one resource; its kind's component schema is `schemaName`, its list's
 * `<schemaName>List`. A custom resource's patches take no strategic merge.
 */
export function resourceOperations(d: ResourceDefinition): Operation[] {
  const kind = { name: d.kind, group: d.group, version: d.version, plural: d.plural };
  const kindSchema = d.schemaName;
  const listSchema = `${d.schemaName}List`;
  // kube drops `.k8s.io` from its own groups: createRbacAuthorizationV1ClusterRole.
  const gv = `${groupToPascal(kind.group.replace(/\.k8s\.io$/, ''))}${kind.version[0]!.toUpperCase()}${kind.version.slice(1)}`;
  const ns = d.scope === 'Namespaced';
  const scoped = ns ? `Namespaced${kind.name}` : kind.name;
  const base = basePath(kind.group, kind.version);
  const collection = ns ? `${base}/namespaces/{namespace}/${kind.plural}` : `${base}/${kind.plural}`;
  const item = `${collection}/{name}`;
  const gvk = { group: kind.group, version: kind.version, kind: kind.name };
  const tag = `${gv[0]!.toLowerCase()}${gv.slice(1)}`;
  const nsParam = ns ? [{ name: 'namespace', description: 'object name and auth scope, such as for teams and projects' }] : [];
  const nameParam = { name: 'name', description: `name of the ${kind.name}` };
  const patchTypes = d.customResource ? PATCH_TYPES : COMPILED_PATCH_TYPES;
  const status = `${META}.Status`;
  const op = (o: Omit<Operation, 'gvk' | 'tag'> & { gvk?: Operation['gvk'] }): Operation => ({ gvk, tag, ...o, ...(d.customResource ? { customResource: true } : {}) });
  const ops: Operation[] = [];
  const create = () =>
    op({ path: collection, method: 'post', action: 'post', operationId: `create${gv}${scoped}`, description: `create a ${kind.name}`, query: WRITE, body: kindSchema, responses: { '200': kindSchema, '201': kindSchema, '202': kindSchema }, pathParams: nsParam });
  // A virtual kind (SelfSubjectAccessReview, …) is only POSTed, as kube serves a rest.Creater.
  if (d.virtual) return [create()];

  if (ns) {
    ops.push(op({ path: `${base}/${kind.plural}`, method: 'get', action: 'list', operationId: `list${gv}${kind.name}ForAllNamespaces`, description: `list or watch objects of kind ${kind.name}`, query: LIST, responses: { '200': listSchema }, pathParams: [] }));
  }
  ops.push(
    op({ path: collection, method: 'get', action: 'list', operationId: `list${gv}${scoped}`, description: `list or watch objects of kind ${kind.name}`, query: LIST, responses: { '200': listSchema }, pathParams: nsParam }),
    create(),
    op({ path: collection, method: 'delete', action: 'deletecollection', operationId: `deletecollection${gv}${scoped}`, description: `delete collection of ${kind.name}`, query: DELETE_COLLECTION, body: `${META}.DeleteOptions`, responses: { '200': status }, pathParams: nsParam }),
    op({ path: item, method: 'get', action: 'get', operationId: `read${gv}${scoped}`, description: `read the specified ${kind.name}`, query: [PARAMS.pretty], responses: { '200': kindSchema }, pathParams: [nameParam, ...nsParam] }),
    op({ path: item, method: 'put', action: 'put', operationId: `replace${gv}${scoped}`, description: `replace the specified ${kind.name}`, query: WRITE, body: kindSchema, responses: { '200': kindSchema, '201': kindSchema }, pathParams: [nameParam, ...nsParam] }),
    op({ path: item, method: 'patch', action: 'patch', operationId: `patch${gv}${scoped}`, description: `partially update the specified ${kind.name}`, query: PATCH, body: `${META}.Patch`, patchTypes, responses: { '200': kindSchema, '201': kindSchema }, pathParams: [nameParam, ...nsParam] }),
    op({ path: item, method: 'delete', action: 'delete', operationId: `delete${gv}${scoped}`, description: `delete a ${kind.name}`, query: DELETE, body: `${META}.DeleteOptions`, responses: { '200': kindSchema, '202': kindSchema }, pathParams: [nameParam, ...nsParam] }),
  );
  const sub = (name: 'status' | 'scale', schema: string, subGvk: Operation['gvk'], suffix: string) => {
    const path = `${item}/${name}`;
    const params = [nameParam, ...nsParam];
    ops.push(
      op({ path, method: 'get', action: 'get', operationId: `read${gv}${scoped}${suffix}`, description: `read ${name} of the specified ${kind.name}`, query: [PARAMS.pretty], responses: { '200': schema }, pathParams: params, gvk: subGvk }),
      op({ path, method: 'put', action: 'put', operationId: `replace${gv}${scoped}${suffix}`, description: `replace ${name} of the specified ${kind.name}`, query: WRITE, body: schema, responses: { '200': schema, '201': schema }, pathParams: params, gvk: subGvk }),
      op({ path, method: 'patch', action: 'patch', operationId: `patch${gv}${scoped}${suffix}`, description: `partially update ${name} of the specified ${kind.name}`, query: PATCH, body: `${META}.Patch`, patchTypes, responses: { '200': schema, '201': schema }, pathParams: params, gvk: subGvk }),
    );
  };
  if (d.subresources.status) sub('status', kindSchema, gvk, 'Status');
  if (d.subresources.scale) sub('scale', 'io.k8s.api.autoscaling.v1.Scale', { group: 'autoscaling', version: 'v1', kind: 'Scale' }, 'Scale');
  // Custom subresources, as kube describes pods/log (read…Log, action get) and pods/exec (connectGet…/connectPost…Exec, action connect).
  for (const custom of d.subresources.custom ?? []) {
    const path = `${item}/${custom.name}`;
    const suffix = custom.name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());
    const params = [nameParam, ...nsParam];
    const base = { path, query: [], responses: {}, opaqueResponse: true, pathParams: params };
    if (custom.verbs.includes('get')) {
      ops.push(op({ ...base, method: 'get', action: 'get', operationId: `read${gv}${scoped}${suffix}`, description: `read ${custom.name} of the specified ${kind.name}` }));
    }
    if (custom.verbs.includes('connect')) {
      ops.push(
        op({ ...base, method: 'get', action: 'connect', operationId: `connectGet${gv}${scoped}${suffix}`, description: `connect GET requests to ${custom.name} of ${kind.name}` }),
        op({ ...base, method: 'post', action: 'connect', operationId: `connectPost${gv}${scoped}${suffix}`, description: `connect POST requests to ${custom.name} of ${kind.name}` }),
      );
    }
  }
  return ops;
}

/** The component schemas operations name (bodies and responses), for withMetaSchemas. */
export function operationSchemas(operations: Operation[]): string[] {
  return operations.flatMap((op) => [...(op.body ? [op.body] : []), ...Object.values(op.responses)]);
}
