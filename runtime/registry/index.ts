/** kgen/registry: the generic store, strategies and selectors (k8s.io/apiserver/pkg/registry). */
export { defineResource, type ResourceRegistration, type TypedObject } from './define.js';
export {
  Store,
  type StoreConfig,
  type UpdatedObjectInfo,
  type WriteOptions,
  type DeleteRequest,
  type DeleteResult,
  type ListRequest,
  type WatchRequest,
  type SelectionRequest,
  type StoreWatch,
  type NamespaceLifecycle,
} from './store.js';
export {
  newCustomResourceStrategy,
  newStatusStrategy,
  type RESTStrategy,
  type RESTCreateStrategy,
  type RESTUpdateStrategy,
  type RESTDeleteStrategy,
  type SchemaValidator,
  type StrategyConfig,
} from './strategy.js';
export { parseLabelSelector, type LabelSelector, type LabelRequirement } from '../api/labels.js';
export { parseFieldSelector, type FieldSelector, type FieldRequirement } from './fieldselector.js';
export { evaluateJSONPath, parseJSONPath, JSONPathError } from './jsonpath.js';
export { scaleFromObject, applyScaleToObject, validateScale, type Scale } from './scale.js';
export {
  SYSTEM_NAMESPACES,
  ensureSystemNamespaces,
  newNamespaceLifecycle,
  withNamespaceStrategy,
  isNamespaceResource,
} from './namespaces.js';
export { interpretStorageError, isTooLargeError, toStatus, CONFLICT_MESSAGE } from './errors.js';
export {
  FINALIZER_ORPHAN,
  FINALIZER_FOREGROUND,
  type PropagationPolicy,
  type PropagationOptions,
  type DeletionHooks,
} from './deletion.js';
export { FINALIZER_KUBERNETES, namespaceFinalizeStore } from './namespaces.js';
export { generateName, nowRFC3339 } from './objectmeta.js';
