/**
 * kgen's apiextensions-apiserver: CustomResourceDefinitions posted at run time become served
 * resources. See server.ts (the DelegationTarget), controller.ts (names, conditions, serving,
 * cleanup) and strategy.ts (the CRD kind's own rules, used by the installer).
 */
export { createExtensionsServer, ExtensionsServer, type ExtensionsServerOptions } from './server.js';
export { calculateNamesAndConditions, acceptedNamesForGroup, addNames, emptyNamesInUse, type NamesInUse, type NamingResult } from './naming.js';
export { isCRDResource, withCRDStrategy, applyCRDDefaults } from './strategy.js';
export { validateCRD, validateCRDUpdate } from './validation.js';
export { CLEANUP_FINALIZER, type CustomResourceDefinition } from './types.js';
