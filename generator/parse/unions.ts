/**
 * Discriminated unions (`HttpTarget | TcpTarget`, each with a literal `type`) as one structural
 * object: Kubernetes schemas have no oneOf a server could prune by, so the schema holds every
 * member's fields, the discriminator required (an enum of the tags) and the rest optional, and
 * x-kubernetes-validations (CEL) enforce the members, as controller-gen's ExactlyOneOf markers
 * do: a member's required fields are required when its tag is chosen (FieldValueRequired), and
 * a field no member of the chosen tag has is forbidden (FieldValueForbidden), each rule at the
 * field's path with a kube-style message. The model keeps the members, so the generated
 * TypeScript keeps the union and code narrows on the tag.
 */
import type { DiagnosticBag } from '../diagnostics.js';
import type { ObjectSchema, Property, RefSchema, Schema, SourceLocation, ValidationRule } from '../model.js';

export interface UnionMember {
  /** The member as written: a ref to a named type, or an inline object type. */
  schema: Schema;
  /** Its fields (the named type's object). */
  object: ObjectSchema;
  /** Its source text, for messages. */
  text: string;
}

/** The union's object schema, or undefined (reported: KG030, KG033) when it cannot be one. */
export function discriminatedUnion(text: string, members: UnionMember[], loc: SourceLocation, diags: DiagnosticBag): ObjectSchema | undefined {
  const tagsOf = (m: UnionMember, field: string): string[] | undefined => {
    const p = m.object.properties.find((q) => q.name === field);
    return p && !p.optional && p.schema.type === 'string' && p.schema.enum && !p.schema.nullable ? p.schema.enum : undefined;
  };
  const candidates = members[0]!.object.properties.map((p) => p.name).filter((name) => members.every((m) => tagsOf(m, name)));
  if (candidates.length === 0) {
    diags.add('KG030', loc, { type: text, members: members.map((m) => m.text).join(', ') });
    return undefined;
  }
  const discriminator = candidates.find((name) => disjoint(members.map((m) => tagsOf(m, name)!)));
  if (!discriminator) {
    diags.add('KG033', loc, { type: text, problem: `its members share values of "${candidates[0]}", so a value cannot tell them apart`, hint: 'Give each member its own literal value of the discriminator field.' });
    return undefined;
  }
  const tags = members.map((m) => tagsOf(m, discriminator)!);
  const properties = mergedFields(text, members, discriminator, tags, loc, diags);
  if (!properties) return undefined;
  const schema: ObjectSchema = {
    type: 'object',
    properties,
    union: { discriminator, members: members.map((m, i) => ({ tags: tags[i]!, schema: m.schema as RefSchema | ObjectSchema })) },
    loc,
  };
  const rules = unionRules(members, discriminator, tags, properties, loc);
  if (rules.length) schema.validations = rules;
  return schema;
}

function disjoint(sets: string[][]): boolean {
  const seen = new Set<string>();
  for (const set of sets) for (const v of set) {
    if (seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

/** Every member's fields once: the discriminator first (required), then in order of appearance. */
function mergedFields(text: string, members: UnionMember[], discriminator: string, tags: string[][], loc: SourceLocation, diags: DiagnosticBag): Property[] | undefined {
  const first = members[0]!.object.properties.find((p) => p.name === discriminator)!;
  const out: Property[] = [{ name: discriminator, optional: false, schema: { type: 'string', enum: tags.flat(), loc: first.schema.loc }, loc: first.loc }];
  const seen = new Map<string, { prop: Property; shape: string; member: UnionMember }>();
  for (const member of members) {
    for (const prop of member.object.properties) {
      if (prop.name === discriminator) continue;
      const shape = JSON.stringify(prop.schema, (k, v) => (k === 'loc' || k === 'description' ? undefined : v));
      const prior = seen.get(prop.name);
      if (prior) {
        if (prior.shape !== shape) {
          diags.add('KG033', prop.loc, {
            type: text,
            problem: `field "${prop.name}" has one type in ${prior.member.text} and another in ${member.text}`,
            hint: 'A field of several members is one field of the schema: give it the same type in each, or rename it in one.',
          });
          return undefined;
        }
        continue;
      }
      seen.set(prop.name, { prop, shape, member });
      const requiredInAll = members.every((m) => m.object.properties.some((q) => q.name === prop.name && !q.optional));
      out.push({ ...prop, optional: !requiredInAll });
    }
  }
  return out;
}

/** CEL rules enforcing the members: each rule guarded by the discriminator being set (else it is the schema's Required error alone). */
function unionRules(members: UnionMember[], discriminator: string, tags: string[][], properties: Property[], loc: SourceLocation): ValidationRule[] {
  const tag = celSelect(discriminator);
  const isOneOf = (values: string[]) => (values.length === 1 ? `${tag} == ${celString(values[0]!)}` : `${tag} in [${values.map(celString).join(', ')}]`);
  const isNoneOf = (values: string[]) => (values.length === 1 ? `${tag} != ${celString(values[0]!)}` : `!(${isOneOf(values)})`);
  const words = (values: string[]) => values.map((v) => JSON.stringify(v)).join(' or ');
  const rules: ValidationRule[] = [];
  for (const prop of properties) {
    if (prop.name === discriminator || !prop.optional) continue;
    const field = celSelect(prop.name);
    const fieldPath = celFieldPath(prop.name);
    members.forEach((m, i) => {
      if (!m.object.properties.some((q) => q.name === prop.name && !q.optional)) return;
      rules.push({
        rule: `!has(${tag}) || ${isNoneOf(tags[i]!)} || has(${field})`,
        message: `must be set when ${discriminator} is ${words(tags[i]!)}`,
        reason: 'FieldValueRequired',
        fieldPath,
        loc,
      });
    });
    const allowed = members.flatMap((m, i) => (m.object.properties.some((q) => q.name === prop.name) ? tags[i]! : []));
    if (allowed.length < tags.flat().length) {
      rules.push({
        rule: `!has(${field}) || !has(${tag}) || ${isOneOf(allowed)}`,
        message: `may only be set when ${discriminator} is ${words(allowed)}`,
        reason: 'FieldValueForbidden',
        fieldPath,
        loc,
      });
    }
  }
  return rules;
}

const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** `self.<field>`, with kube's escaping of property names that are not CEL identifiers. */
function celSelect(name: string): string {
  if (CEL_RESERVED.has(name)) return `self.__${name}__`;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.includes('__')) return `self.${name}`;
  const escaped = name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
  return `self.${escaped}`;
}

function celString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A rule's fieldPath for a field of the object the rule is on: `.port`, or `['a-b']`. */
function celFieldPath(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `['${name.replace(/'/g, "\\'")}']`;
}
