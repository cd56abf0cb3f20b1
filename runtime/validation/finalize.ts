/**
 * Post-compile passes over every node of a compiled graph: derived fields (type names, compiled
 * patterns, format checks), the ObjectMeta schema under embedded resources, and the flag telling
 * the second validation pass (list types, embedded resources) which subtrees it must visit.
 */
import { STRING_FORMATS, normalizeFormat } from './formats.js';
import type { SchemaNode } from './node.js';
import { compileRE2 } from './re2.js';

export function finalizeNodes(nodes: readonly SchemaNode[], objectMeta: SchemaNode | undefined): void {
  for (const node of nodes) finalizeNode(node, objectMeta);
  markStructuralPass(nodes);
}

function finalizeNode(node: SchemaNode, objectMeta: SchemaNode | undefined): void {
  node.typeName = node.types ? node.types.join(',') : '';
  if (node.format !== undefined) {
    const normalized = normalizeFormat(node.format);
    node.formatCheck = STRING_FORMATS.get(normalized);
    node.int32 = normalized === 'int32';
  }
  if (node.pattern !== undefined) compilePattern(node, node.pattern);
  if (isTypelessAny(node)) node.preserveUnknown = true;
  if (node.embedded && objectMeta) useObjectMeta(node, objectMeta);
}

/**
 * kube compiles `pattern` as a Go (RE2) regular expression: it is translated into a JS RegExp
 * (re2.ts). A pattern Go would not compile is reported when a value is checked against it, as
 * kube-openapi does (a CRD's patterns are refused when the CRD is written).
 */
function compilePattern(node: SchemaNode, pattern: string): void {
  try {
    node.patternRegExp = compileRE2(pattern);
  } catch (err) {
    node.patternRegExp = null;
    node.patternError = err instanceof Error ? err.message : String(err);
  }
}

/**
 * A node with no type and no structure (`{}`, a bare description) accepts any value and keeps it
 * whole. kube would refuse such a schema as non-structural; treating it as
 * x-kubernetes-preserve-unknown-fields keeps data instead of pruning it away.
 */
function isTypelessAny(node: SchemaNode): boolean {
  return (
    node.types === undefined &&
    node.properties === undefined &&
    node.items === undefined &&
    node.additional === undefined &&
    !node.intOrString
  );
}

/** An embedded resource knows apiVersion, kind and metadata; its metadata is an ObjectMeta. */
export function useObjectMeta(node: SchemaNode, objectMeta: SchemaNode): void {
  node.keepsTypeMeta = true;
  const props = new Map(node.properties ?? []);
  props.set('metadata', objectMeta);
  node.properties = props;
}

/** Fixpoint over a possibly cyclic graph: a node needs the pass if it or anything below it does. */
function markStructuralPass(nodes: readonly SchemaNode[]): void {
  for (const node of nodes) {
    node.needsStructuralPass = node.embedded || node.listType === 'set' || node.listType === 'map';
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const node of nodes) {
      if (node.needsStructuralPass) continue;
      if (childNeedsPass(node)) {
        node.needsStructuralPass = true;
        changed = true;
      }
    }
  }
}

function childNeedsPass(node: SchemaNode): boolean {
  if (node.items?.needsStructuralPass) return true;
  if (typeof node.additional === 'object' && node.additional.needsStructuralPass) return true;
  if (node.properties) for (const child of node.properties.values()) if (child.needsStructuralPass) return true;
  return false;
}
