/**
 * kgen's stand-ins for JSONSchemaProps' recursive fields (a CustomResourceDefinition's nested
 * schemas, kept as JSON), linked at compile time to the JSONSchemaProps node Go decodes them into
 * (SchemaNode.goSchemaProps; go-decode.ts decodes them so).
 */
import type { SchemaNode } from './node.js';

/** kgen's stand-ins for JSONSchemaProps' recursive fields, by Go type (decodeSchemaPropsStandIn). */
const SCHEMA_PROPS_STAND_INS = new Set(['v1.NestedJSONSchemaProps', 'v1.JSONSchemaPropsOrArray', 'v1.JSONSchemaPropsOrBool', 'v1.JSONSchemaPropsOrStringArray']);

/**
 * Links each stand-in for JSONSchemaProps' recursive fields among a compiled kind's nodes (a
 * CustomResourceDefinition's) to the JSONSchemaProps node, which Go decodes them into.
 */
export function linkSchemaPropsStandIns(nodes: readonly SchemaNode[]): void {
  const props = nodes.find((node) => node.goType === 'v1.JSONSchemaProps' && node.properties !== undefined);
  if (props === undefined) return;
  for (const node of nodes) if (node.goType !== undefined && SCHEMA_PROPS_STAND_INS.has(node.goType)) node.goSchemaProps = props;
}
