/**
 * Turning what a read returns into what the client asked for (kube's transformResponseObject):
 * the object itself, a Table, or PartialObjectMetadata[List].
 */
import type { KubeList, KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { OutputTarget } from './negotiation.js';
import { convertToTable, partialObjectMetadata, type IncludeObject } from './tableconvertor.js';

export interface TransformOptions {
  includeObject: IncludeObject;
  noHeaders?: boolean;
}

function metaVersion(target: OutputTarget): string {
  return target.as === 'Object' ? 'meta.k8s.io/v1' : `meta.k8s.io/${target.version}`;
}

export function transformObject(def: ResourceDefinition, obj: KubeObject, target: OutputTarget, opts: TransformOptions): unknown {
  switch (target.as) {
    case 'Object':
      return obj;
    case 'Table':
      return convertToTable(def, [obj], { resourceVersion: obj.metadata.resourceVersion }, {
        includeObject: opts.includeObject,
        noHeaders: opts.noHeaders,
        apiVersion: metaVersion(target),
      });
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return partialObjectMetadata(obj, metaVersion(target));
    default: {
      const never: never = target;
      throw new Error(`unknown output target ${JSON.stringify(never)}`);
    }
  }
}

export function transformList(def: ResourceDefinition, list: KubeList, target: OutputTarget, opts: TransformOptions): unknown {
  switch (target.as) {
    case 'Object':
      return list;
    case 'Table':
      return convertToTable(def, list.items, list.metadata, { includeObject: opts.includeObject, apiVersion: metaVersion(target) });
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return {
        kind: 'PartialObjectMetadataList',
        apiVersion: metaVersion(target),
        metadata: list.metadata,
        items: list.items.map((o) => partialObjectMetadata(o, metaVersion(target))),
      };
    default: {
      const never: never = target;
      throw new Error(`unknown output target ${JSON.stringify(never)}`);
    }
  }
}
