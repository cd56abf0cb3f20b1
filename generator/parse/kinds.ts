/**
 * Reads a resource interface (one whose doc comment carries @kgen:resource) into a Kind: naming,
 * scope, subresources, printer columns and selectable fields from its markers, and its fields.
 */
import type ts from 'typescript';
import { isPropertySignature } from './nodes.js';
import type { DiagnosticBag } from '../diagnostics.js';
import type { CustomSubresource, Kind, PrintColumn, Schema, SourceLocation } from '../model.js';
import { pluralize } from '../names.js';
import { isExported, propertyName } from './declarations.js';
import { nodeLocation, readDoc, type DocTag } from './jsdoc.js';
import { checkTag, listArg, readMarkerArgs, type MarkerArgs } from './markers.js';
import type { VersionTypes } from './types.js';
import { addRule, ruleFromMarker } from './validations.js';

const IMPLIED = new Set(['apiVersion', 'kind', 'metadata']);
const COLUMN_TYPES = ['integer', 'number', 'string', 'boolean', 'date'] as const;

export function isResource(decl: ts.InterfaceDeclaration, sourceFile: ts.SourceFile): boolean {
  return readDoc(decl, sourceFile).tags.some((t) => t.name === 'kgen:resource');
}

export function readKind(decl: ts.InterfaceDeclaration, sourceFile: ts.SourceFile, group: string, version: string, types: VersionTypes, diags: DiagnosticBag): Kind {
  const name = decl.name.getText(sourceFile);
  const loc = nodeLocation(decl, sourceFile);
  if (!isExported(decl, sourceFile)) diags.add('KG014', loc, { kind: name });
  const doc = readDoc(decl, sourceFile);
  const kind: Kind = {
    name,
    group,
    version,
    plural: pluralize(name),
    singular: name.toLowerCase(),
    scope: 'Namespaced',
    shortNames: [],
    categories: [],
    subresources: {},
    printColumns: [],
    selectableFields: [],
    storageVersion: false,
    schema: types.interfaceObject(decl, sourceFile, IMPLIED),
    loc,
  };
  if (doc.description) kind.description = doc.description;
  for (const tag of doc.tags) {
    if (!checkTag(tag, 'resource', diags)) continue;
    if (!tag.name.startsWith('kgen:')) {
      diags.add('KG002', tag.loc, {
        tag: `@${tag.name}`,
        where: 'on a resource interface',
        placement: 'Value tags belong on fields or type aliases.',
      });
      continue;
    }
    const args = readMarkerArgs(tag, diags);
    if (args) applyResourceMarker(kind, tag, args, diags);
  }
  checkImpliedFields(decl, sourceFile, types, diags);
  return kind;
}

function applyResourceMarker(kind: Kind, tag: DocTag, args: MarkerArgs, diags: DiagnosticBag): void {
  const get = (key: string) => args.named.get(key);
  const bad = (problem: string, example: string) => diags.add('KG003', tag.loc, { tag: `@${tag.name}`, problem, example });
  switch (tag.name) {
    case 'kgen:resource': {
      const scope = get('scope');
      if (scope !== undefined) {
        if (scope === 'Namespaced' || scope === 'Cluster') kind.scope = scope;
        else bad(`scope must be Namespaced or Cluster, got "${scope}"`, 'scope=Cluster');
      }
      for (const key of ['plural', 'singular'] as const) {
        const value = get(key);
        if (value === undefined) continue;
        if (/^[a-z][a-z0-9]*$/.test(value)) kind[key] = value;
        else bad(`${key} must be lower-case letters and digits, got "${value}"`, `${key}=${kind[key]}`);
      }
      kind.shortNames = checkedNames(listArg(get('shortNames')), 'shortNames', bad);
      kind.categories = checkedNames(listArg(get('categories')), 'categories', bad);
      break;
    }
    case 'kgen:subresource':
      if (args.positional[0] === 'custom') {
        const custom = readCustomSubresource(get('name'), get('verbs'), tag.loc, bad);
        if (!custom) break;
        if ((kind.subresources.custom ?? []).some((c) => c.name === custom.name)) bad(`the subresource "${custom.name}" is declared twice`, '@kgen:subresource custom name=logs verbs=get');
        else (kind.subresources.custom ??= []).push(custom);
      } else if (args.positional[0] === 'status') {
        kind.subresources.status = tag.loc;
        if (args.named.size > 0) bad('the status subresource takes no arguments', '@kgen:subresource status');
      } else {
        const specReplicasPath = get('specReplicasPath');
        const statusReplicasPath = get('statusReplicasPath');
        if (!specReplicasPath || !statusReplicasPath) {
          diags.add('KG005', tag.loc, {
            tag: '@kgen:subresource scale',
            argument: specReplicasPath ? 'statusReplicasPath=' : 'specReplicasPath=',
            example: '@kgen:subresource scale specReplicasPath=.spec.replicas statusReplicasPath=.status.replicas',
          });
          break;
        }
        kind.subresources.scale = { specReplicasPath, statusReplicasPath, loc: tag.loc };
        const selector = get('labelSelectorPath');
        if (selector) kind.subresources.scale.labelSelectorPath = selector;
      }
      break;
    case 'kgen:printcolumn': {
      const column = readColumn(args, tag.loc, bad);
      if (column) kind.printColumns.push(column);
      break;
    }
    case 'kgen:selectableField':
      kind.selectableFields.push({ jsonPath: get('jsonPath')!, loc: tag.loc });
      break;
    case 'kgen:storageversion':
      kind.storageVersion = true;
      break;
    case 'kgen:unservedversion':
      kind.unserved = tag.loc;
      break;
    case 'kgen:deprecatedversion': {
      const warning = get('warning');
      // kube's CRD validation: at most 256 printable characters.
      if (warning !== undefined && (warning.length > 256 || /[\u0000-\u001f\u007f]/.test(warning) || warning.trim() === '')) {
        diags.add('KG004', tag.loc, { tag: `@${tag.name}`, problem: 'warning must be 1 to 256 printable characters', expect: 'Write a short sentence, e.g. warning="v1beta1 Widget is deprecated; use v1".' });
      }
      kind.deprecated = warning === undefined ? { loc: tag.loc } : { warning, loc: tag.loc };
      break;
    }
    case 'kgen:virtual':
      kind.virtual = tag.loc;
      break;
    case 'kgen:validation':
    case 'kgen:immutable':
      addRule(kind.schema, ruleFromMarker(tag, args, diags));
      break;
    case 'kgen:allowBreakingChange':
      kind.allowBreakingChange = { reason: args.named.get('reason')!, loc: tag.loc };
      break;
  }
}

function checkedNames(values: string[], key: string, bad: (problem: string, example: string) => void): string[] {
  const okNames = values.filter((v) => /^[a-z][a-z0-9-]*$/.test(v));
  if (okNames.length !== values.length) bad(`${key} must be lower-case words separated by commas`, `${key}=wd,wdg`);
  return okNames;
}

function readColumn(args: MarkerArgs, loc: SourceLocation, bad: (problem: string, example: string) => void): PrintColumn | undefined {
  const type = args.named.get('type')!;
  if (!(COLUMN_TYPES as readonly string[]).includes(type)) {
    bad(`type must be one of ${COLUMN_TYPES.join(', ')}, got "${type}"`, 'type=integer');
    return undefined;
  }
  const priorityText = args.named.get('priority') ?? '0';
  const priority = Number(priorityText);
  if (!Number.isInteger(priority) || priority < 0) {
    bad(`priority must be a non-negative integer, got "${priorityText}"`, 'priority=1');
    return undefined;
  }
  const column: PrintColumn = {
    name: args.named.get('name')!,
    type: type as PrintColumn['type'],
    jsonPath: args.named.get('jsonPath')!,
    priority,
    loc,
  };
  const description = args.named.get('description');
  if (description) column.description = description;
  const format = args.named.get('format');
  if (format) column.format = format;
  return column;
}

/** apiVersion and kind may be written out as strings, metadata as ObjectMeta. */
function checkImpliedFields(decl: ts.InterfaceDeclaration, sourceFile: ts.SourceFile, types: VersionTypes, diags: DiagnosticBag): void {
  for (const member of decl.members) {
    if (!isPropertySignature(member)) continue;
    const field = propertyName(member, sourceFile);
    if (!IMPLIED.has(field)) continue;
    const typeNode = member.type;
    const schema: Schema | undefined = typeNode ? types.convert(typeNode, sourceFile) : undefined;
    const ok = field === 'metadata' ? schema?.type === 'wellKnown' && schema.name === 'ObjectMeta' : schema?.type === 'string';
    if (!ok) {
      diags.add('KG015', nodeLocation(member, sourceFile), {
        field,
        kind: decl.name.getText(sourceFile),
        expected: field === 'metadata' ? "ObjectMeta (from 'kgen')" : 'string',
      });
    }
  }
}

const RESERVED_SUBRESOURCES = new Set(['status', 'scale', 'finalize']);

/** `name=` a lower-case path segment other than kube's own subresources; `verbs=` get and/or connect. */
function readCustomSubresource(
  name: string | undefined,
  verbs: string | undefined,
  loc: SourceLocation,
  bad: (problem: string, example: string) => void,
): CustomSubresource | undefined {
  const example = '@kgen:subresource custom name=logs verbs=get';
  if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
    bad(name ? `name must be lower-case letters, digits and '-', got "${name}"` : 'name= is required', example);
    return undefined;
  }
  if (RESERVED_SUBRESOURCES.has(name)) {
    bad(`"${name}" is a built-in subresource; use @kgen:subresource ${name === 'finalize' ? 'status' : name}`, example);
    return undefined;
  }
  const list = (verbs ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (list.length === 0 || list.some((v) => v !== 'get' && v !== 'connect')) {
    bad(`verbs must be get, connect or get,connect, got "${verbs ?? ''}"`, '@kgen:subresource custom name=console verbs=connect');
    return undefined;
  }
  return { name, verbs: [...new Set(list)] as CustomSubresource['verbs'], loc };
}
