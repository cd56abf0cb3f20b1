/**
 * kube's name and label rules (apimachinery/pkg/util/validation), kept where validation code
 * looks for them. They live in runtime/api/names.ts, at the bottom of the layer order, because
 * label selectors (runtime/api/labels.ts, which the client shares) check keys and values with them.
 */
export * from '../api/names.js';
