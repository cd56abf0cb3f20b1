/**
 * Applies value tags (`@minimum`, `@default`, `@kgen:listType`, …) to a schema node, checking that
 * each fits the type it is written on.
 */
import { inexactIntegerOf } from '../../runtime/api/json-integers.js';
import type { DiagnosticBag } from '../diagnostics.js';
import type { Schema, SchemaAnnotations } from '../model.js';
import type { DocTag } from './jsdoc.js';
import { MARKERS, VALUE_TAGS, readMarkerArgs, type ValueTagName } from './markers.js';
import { addRule, ruleFromMarker } from './validations.js';

/** The schema kinds a tag fits; `any` fits every type. */
const FITS: Record<string, readonly Schema['type'][] | 'any'> = {
  minimum: ['integer', 'number'],
  maximum: ['integer', 'number'],
  exclusiveMinimum: ['integer', 'number'],
  exclusiveMaximum: ['integer', 'number'],
  multipleOf: ['integer', 'number'],
  minLength: ['string'],
  maxLength: ['string'],
  pattern: ['string', 'quantity'],
  format: ['string', 'integer', 'number'],
  minItems: ['array'],
  maxItems: ['array'],
  uniqueItems: ['array'],
  minProperties: ['map', 'object', 'unknown'],
  maxProperties: ['map', 'object', 'unknown'],
  default: 'any',
  example: 'any',
  deprecated: 'any',
  'kgen:listType': ['array'],
  'kgen:listMapKey': ['array'],
  'kgen:preserveUnknownFields': ['object', 'map', 'unknown'],
  'kgen:protobuf': 'any',
  'kgen:validation': 'any',
  'kgen:immutable': 'any',
  'kgen:allowBreakingChange': 'any',
};

const TYPE_WORDS: Partial<Record<Schema['type'], string>> = {
  integer: 'an integer (int32, int64)',
  number: 'a number',
  string: 'a string',
  array: 'an array',
  map: 'a map (Record<string, T>)',
  object: 'an object',
  unknown: 'an object',
  quantity: 'a Quantity',
};

function parseValue(tag: DocTag, kind: (typeof VALUE_TAGS)[ValueTagName]): { value: unknown } | { error: string; expect: string } {
  const text = tag.text;
  switch (kind) {
    case 'number': {
      const n = Number(text);
      return text !== '' && Number.isFinite(n) ? { value: n } : { error: `"${text}" is not a number`, expect: `Write a number, e.g. @${tag.name} 1.` };
    }
    case 'count': {
      const n = Number(text);
      return /^\d+$/.test(text) && Number.isSafeInteger(n)
        ? { value: n }
        : { error: `"${text}" is not a non-negative integer`, expect: `Write a whole number, e.g. @${tag.name} 3.` };
    }
    case 'regex':
      if (text === '') return { error: 'the pattern is empty', expect: 'Write a regular expression, e.g. @pattern ^[a-z]+$' };
      try {
        new RegExp(text, 'u');
        return { value: text };
      } catch (err) {
        return { error: (err as Error).message, expect: 'Write an ECMA-262 regular expression without slashes, e.g. @pattern ^[a-z]+$' };
      }
    case 'word':
      return /^[\w-]+$/.test(text) ? { value: text } : { error: `"${text}" is not a format name`, expect: 'Write a format such as date-time, int32, byte or uuid.' };
    case 'flag':
      return text === '' || text === 'true' ? { value: true } : text === 'false' ? { value: false } : { error: `"${text}" is not true or false`, expect: `Write @${tag.name} alone, or @${tag.name} false.` };
    case 'json':
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: `"${text}" is not valid JSON`, expect: `Write a JSON value, e.g. @${tag.name} 3, @${tag.name} "red" or @${tag.name} {"a": 1}.` };
      }
    case 'text':
      return { value: true };
  }
}

/** Does a JSON value fit a schema's type (used to check @default and @example)? */
function jsonFits(value: unknown, schema: Schema, base: Schema['type']): boolean {
  if (value === null) return !!schema.nullable;
  switch (base) {
    case 'string':
    case 'time':
    case 'duration':
      return typeof value === 'string' && (schema.type !== 'string' || !schema.enum || schema.enum.includes(value));
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'map':
    case 'object':
    case 'wellKnown':
      return typeof value === 'object' && !Array.isArray(value);
    case 'intOrString':
    case 'quantity':
      return typeof value === 'string' || Number.isInteger(value);
    case 'unknown':
    case 'ref':
      return true;
  }
}

/**
 * Applies tags to `schema` in place. `baseType` is the schema's type after looking through named
 * references, so `@minimum` on a field whose type is an integer alias is accepted.
 */
export function applyValueTags(schema: Schema, baseType: Schema['type'], tags: DocTag[], diags: DiagnosticBag): void {
  const target = schema as SchemaAnnotations;
  for (const tag of tags) {
    const fits = FITS[tag.name];
    if (fits === undefined) continue;
    if (fits !== 'any' && !fits.includes(baseType)) {
      diags.add('KG002', tag.loc, {
        tag: `@${tag.name}`,
        where: `on ${TYPE_WORDS[baseType] ?? `a ${baseType}`}`,
        placement: `@${tag.name} applies to ${fits.map((f) => TYPE_WORDS[f] ?? f).join(' or ')}.`,
      });
      continue;
    }
    if (tag.name in MARKERS) {
      applyMarker(target, tag, diags);
      continue;
    }
    const parsed = parseValue(tag, VALUE_TAGS[tag.name as ValueTagName]);
    if ('error' in parsed) {
      diags.add('KG004', tag.loc, { tag: `@${tag.name}`, problem: parsed.error, expect: parsed.expect });
      continue;
    }
    // JSON.parse rounded an integer beyond 2^53: the schema would hold another number.
    const inexact = VALUE_TAGS[tag.name as ValueTagName] === 'json' ? inexactIntegerOf(tag.text) : undefined;
    if (inexact !== undefined) {
      diags.add('KG019', tag.loc, { literal: inexact.literal, where: ` in "@${tag.name}"${inexact.path === '' ? '' : ` at ${inexact.path}`}`, rounded: String(Number(inexact.literal)) });
      continue;
    }
    if ((tag.name === 'default' || tag.name === 'example') && !jsonFits(parsed.value, schema, baseType)) {
      diags.add('KG004', tag.loc, {
        tag: `@${tag.name}`,
        problem: `${JSON.stringify(parsed.value)} does not fit the field's type (${TYPE_WORDS[baseType] ?? baseType}${schema.type === 'string' && schema.enum ? `: ${schema.enum.map((e) => JSON.stringify(e)).join(' | ')}` : ''})`,
        expect: 'Write a JSON value of the field\'s type.',
      });
      continue;
    }
    (target as Record<string, unknown>)[tag.name] = parsed.value;
  }
}

function applyMarker(target: SchemaAnnotations, tag: DocTag, diags: DiagnosticBag): void {
  const args = readMarkerArgs(tag, diags);
  if (!args) return;
  switch (tag.name) {
    case 'kgen:listType':
      target.listType = args.positional[0] as SchemaAnnotations['listType'];
      break;
    case 'kgen:listMapKey':
      target.listMapKeys = [...(target.listMapKeys ?? []), ...args.positional];
      break;
    case 'kgen:preserveUnknownFields':
      target.preserveUnknownFields = true;
      break;
    case 'kgen:protobuf':
      // The number and its words (`3 pointer`); read (and checked: KG120-KG122) by check/protobuf.ts.
      target.protobuf = { text: args.positional.join(' '), loc: tag.loc };
      break;
    case 'kgen:validation':
    case 'kgen:immutable':
      addRule(target, ruleFromMarker(tag, args, diags));
      break;
    case 'kgen:allowBreakingChange':
      target.allowBreakingChange = { reason: args.named.get('reason')!, loc: tag.loc };
      break;
  }
}
