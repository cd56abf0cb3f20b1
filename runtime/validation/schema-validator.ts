/**
 * compileSchemaValidator: the one entry point that turns OpenAPI component schemas into a
 * SchemaValidator (validate, unknownFields, prune, applyDefaults), compiled once and reused for
 * every write. Built-in kinds (schemas emitted by kgen) and CRD schemas posted at run time go
 * through the same engine.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { StatusCause } from '../api/meta.js';
import { SchemaCompiler, type GoFields, type SchemaInput } from './compile.js';
import { pruneNullsAndApplyDefaults } from './defaults.js';
import { finalizeNodes } from './finalize.js';
import { objectMetaSchema } from './metaschema.js';
import { emptyNode, type SchemaNode } from './node.js';
import { PruneWalk } from './prune.js';
import { validateStructural, type StructuralErrors } from './structural.js';
import type { FieldError } from './types.js';
import { validateValue } from './validate.js';
import { celErrors, newCelValidator } from './cel.js';
import { goConvertError } from './go-convert.js';
import { goDecodeError } from './go-decode.js';
import { keepQuantityLiterals } from './go-quantity-literals.js';
import { goRepeatedKeysValue } from './go-repeated-keys.js';
import { linkSchemaPropsStandIns } from './go-schema-props.js';
import type { NumberLiterals } from './json-literals.js';

export interface SchemaValidator {
  /**
   * Every schema error (kube-openapi's, then embedded-resource and list-type ones, then the
   * x-kubernetes-validations CEL rules); never throws. `old` is the stored object on update: CEL
   * transition rules (oldSelf) run only then.
   */
  validate(obj: unknown, old?: unknown): FieldError[];
  /** Sorted paths of fields the schema does not declare (outside preserve-unknown-fields and maps). */
  unknownFields(obj: unknown): string[];
  /** Removes those fields in place (structural pruning). */
  prune(obj: unknown): void;
  /** Structural defaulting in place (drops non-nullable nulls without defaults, then applies defaults). */
  applyDefaults(obj: unknown): void;
  /**
   * A built-in kind's (schema compiled with Go facts): what kube's JSON decoder answers for a body
   * that does not decode into the Go type (go-decode.ts), or undefined when it decodes. Absent
   * where kube decodes into unstructured (custom resources). `literals`: the JSON text obj was
   * parsed from, when it was, or the number literals found for it (json-literals.ts): they are
   * judged as Go judges them. `repeatedKeys`: that JSON text repeats a key (Go decodes every
   * occurrence; JSON.parse kept the last).
   */
  decodeError?(obj: Record<string, unknown>, literals?: string | NumberLiterals, repeatedKeys?: boolean): string | undefined;
  /**
   * The same kinds: what runtime.DefaultUnstructuredConverter answers when the object, held as a
   * map, is converted into the Go type (a strategic merge patch's result), or undefined.
   */
  convertError?(obj: Record<string, unknown>): string | undefined;
  /**
   * The same kinds: the object kube keeps from a JSON body that repeats a key and decodes (Go
   * decodes every occurrence into what the earlier ones filled: go-repeated-keys.ts), where
   * JSON.parse kept only the last; undefined when the text cannot be read so.
   */
  repeatedKeysValue?(text: string): Record<string, unknown> | undefined;
  /**
   * The same kinds: writes each Quantity sent as a JSON number whose literal is in `literals` (a
   * decoded body's, json-literals.ts) as that literal's text, which kube's Quantity.UnmarshalJSON
   * parses (go-quantity-literals.ts). In place.
   */
  keepQuantityLiterals?(obj: Record<string, unknown>, literals: NumberLiterals): void;
}

const STRING_NODE: SchemaNode = { ...emptyNode(), types: ['string'], typeName: 'string' };

/**
 * Compiles `schemas[rootName]` and everything it references. Throws an Error when a $ref names a
 * schema that does not exist (a bad schema, not bad input). `canonicalQuantities` (one of
 * Kubernetes' own kinds, compiled with its Go facts): applyDefaults writes its Quantities as kube
 * writes them back (SchemaNode.goQuantity).
 */
export function compileSchemaValidator(
  schemas: Record<string, OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject>,
  rootName: string,
  goFields?: GoFields,
  canonicalQuantities = false,
): SchemaValidator {
  const objectMeta = objectMetaSchema();
  const compiler = new SchemaCompiler(schemas as Record<string, SchemaInput>, goFields);
  const compiled = compiler.compileNamed(rootName);
  if (goFields) {
    // A built-in kind is decoded into its Go type and validated there, not against the OpenAPI
    // schema: resource.Quantity.UnmarshalJSON takes any JSON number (ParseQuantity of its text,
    // `cpu: 0.5`), so a Quantity (int-or-string with kube's pattern, as go-decode.ts reads it)
    // takes a fraction too. Custom resources and kgen's own kinds keep int-or-string, as kube's
    // CRD validation does.
    for (const node of compiler.nodes) {
      if (!node.intOrString || node.pattern === undefined) continue;
      node.types = ['integer', 'number', 'string'];
      node.goQuantity = canonicalQuantities;
    }
    linkSchemaPropsStandIns(compiler.nodes);
  }
  finalizeNodes(compiler.nodes, objectMeta);
  const root = resourceRoot(compiled, objectMeta);
  const cel = newCelValidator(root, compiler.nodes);
  const validator: SchemaValidator = {
    validate(obj, old) {
      let errs: FieldError[] = [];
      validateValue(root, obj, '', errs);
      if (root.needsStructuralPass) {
        const structural: StructuralErrors = { embedded: [], listType: [] };
        validateStructural(root, obj, '', structural);
        errs = errs.concat(structural.embedded, structural.listType);
      }
      return cel ? errs.concat(celErrors(cel, errs, obj, old)) : errs;
    },
    unknownFields(obj) {
      const walk = new PruneWalk(false, true);
      walk.prune(obj, root, '');
      return walk.found.sort();
    },
    prune(obj) {
      new PruneWalk(true, false).prune(obj, root, '');
    },
    applyDefaults(obj) {
      pruneNullsAndApplyDefaults(obj, root);
    },
  };
  if (goFields) {
    validator.decodeError = (obj, literals, repeatedKeys) => goDecodeError(root, obj, literals, repeatedKeys);
    validator.convertError = (obj) => goConvertError(root, obj);
    validator.repeatedKeysValue = (text) => goRepeatedKeysValue(root, text);
    if (canonicalQuantities) validator.keepQuantityLiterals = (obj, literals) => keepQuantityLiterals(root, obj, literals);
  }
  return validator;
}

/**
 * The root as kube treats a resource: apiVersion and kind are known strings and metadata is
 * ObjectMeta, whatever the schema says of them. A copy, so a root type that is also referenced
 * elsewhere (recursion) keeps its plain shape there.
 */
function resourceRoot(node: SchemaNode, objectMeta: SchemaNode): SchemaNode {
  const props = new Map(node.properties ?? []);
  props.set('metadata', objectMeta);
  for (const key of ['apiVersion', 'kind']) if (!props.has(key)) props.set(key, STRING_NODE);
  return { ...node, properties: props, keepsTypeMeta: true };
}

/** field errors as metav1.StatusCause entries: { reason: type, message: body, field }. */
export function toStatusCauses(errors: FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: `${e.message}`, field: e.field }));
}
