/**
 * The structural schema of metav1.ObjectMeta, used for `metadata` at the resource root and in
 * embedded resources whatever the user's schema says there (kube decodes metadata into the Go
 * struct: fields it does not declare are unknown and pruned). Every field is nullable because Go's
 * decoder reads null as the zero value (kubectl sends `creationTimestamp: null`).
 */
import type { OpenAPIV3 } from 'openapi-types';
import { SchemaCompiler } from './compile.js';
import { finalizeNodes } from './finalize.js';
import type { SchemaNode } from './node.js';

const str = { type: 'string', nullable: true };
const int64 = { type: 'integer', format: 'int64', nullable: true };
const time = { type: 'string', format: 'date-time', nullable: true };
const stringMap = { type: 'object', nullable: true, additionalProperties: { type: 'string' } };

const OBJECT_META_SCHEMAS = {
  ObjectMeta: {
    type: 'object',
    properties: {
      name: str,
      generateName: str,
      namespace: str,
      selfLink: str,
      uid: str,
      resourceVersion: str,
      generation: int64,
      creationTimestamp: time,
      deletionTimestamp: time,
      deletionGracePeriodSeconds: int64,
      labels: stringMap,
      annotations: stringMap,
      ownerReferences: { type: 'array', nullable: true, items: { $ref: '#/components/schemas/OwnerReference' } },
      finalizers: { type: 'array', nullable: true, items: { type: 'string' } },
      managedFields: { type: 'array', nullable: true, items: { $ref: '#/components/schemas/ManagedFieldsEntry' } },
    },
  },
  OwnerReference: {
    type: 'object',
    properties: {
      apiVersion: str,
      kind: str,
      name: str,
      uid: str,
      controller: { type: 'boolean', nullable: true },
      blockOwnerDeletion: { type: 'boolean', nullable: true },
    },
  },
  ManagedFieldsEntry: {
    type: 'object',
    properties: {
      manager: str,
      operation: str,
      apiVersion: str,
      time,
      fieldsType: str,
      fieldsV1: { type: 'object', nullable: true, 'x-kubernetes-preserve-unknown-fields': true },
      subresource: str,
    },
  },
} as unknown as Record<string, OpenAPIV3.SchemaObject>;

let objectMetaNode: SchemaNode | undefined;

/** The compiled ObjectMeta node, built once per process and shared (it is never mutated after). */
export function objectMetaSchema(): SchemaNode {
  if (!objectMetaNode) {
    const compiler = new SchemaCompiler(OBJECT_META_SCHEMAS);
    const node = compiler.compileNamed('ObjectMeta');
    finalizeNodes(compiler.nodes, undefined);
    objectMetaNode = node;
  }
  return objectMetaNode;
}
