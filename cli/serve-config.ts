/**
 * `kgen serve --config <file>`: every serve option from one YAML file, keyed by the flag's name
 * without its dashes (`etcd-servers: https://…`, `max-requests-inflight: 400`,
 * `cors-allowed-origins: [a, b]`). Flags given on the command line override the file. A key that
 * names no option, or a value its option refuses, is an error with the file's line and column.
 * `--print-config` prints the effective configuration in the same form and exits.
 */
import type { Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import type { Node } from 'yaml';
import { yaml } from '../runtime/api/yaml.js';
import { formatGoDuration } from '../runtime/api/duration.js';
import { durationOption } from './duration.js';

const OWN = new Set(['config', 'print-config', 'help']);

export function addConfigFlags(command: Command): Command {
  return command
    .option('--config <file>', 'read options from this YAML file (keys are flag names without dashes; flags given here override it)')
    .option('--print-config', 'print the effective configuration (as --config reads it) and exit');
}

const keyOf = (option: Option) => (option.long ?? '').replace(/^--/, '');

/** Applies the file's values to the options the command line did not set. Throws located errors. */
export function applyConfigFile(command: Command, file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`--config ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  // yaml (~70 modules) only when there is a config file, not on every start.
  const { LineCounter, parseDocument, isMap, isScalar } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (node: { range?: [number, number, number?] | null } | null | undefined) => {
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    return `${file}:${pos.line}:${pos.col}`;
  };
  if (doc.errors.length > 0) throw new Error(`${at({ range: [doc.errors[0]!.pos[0], 0] })}: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (doc.contents === null) return;
  if (!isMap(doc.contents)) throw new Error(`${at(doc.contents)}: expected a mapping of option names to values`);
  const options = new Map(command.options.map((o) => [keyOf(o), o]));
  for (const pair of doc.contents.items) {
    const keyNode = pair.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : '';
    const option = options.get(key);
    if (!option || OWN.has(key)) throw new Error(`${at(keyNode)}: unknown option ${JSON.stringify(key)}${OWN.has(key) ? ' (not allowed in a config file)' : ` (kgen serve has no --${key})`}`);
    const name = option.attributeName();
    if (command.getOptionValueSource(name) === 'cli') continue;
    try {
      command.setOptionValueWithSource(name, valueFor(option, pair.value as Node, command.getOptionValue(name)), 'config');
    } catch (err) {
      throw new Error(`${at(pair.value as Node)}: ${key}: ${(err as Error).message}`);
    }
  }
}

/** The option's value from a YAML node, through the option's own parser as if given as flags. */
function valueFor(option: Option, node: Node, current: unknown): unknown {
  const { isScalar, isSeq } = yaml();
  const scalars = isSeq(node) ? node.items.map((item) => (isScalar(item) ? item.value : undefined)) : [isScalar(node) ? node.value : undefined];
  if (scalars.some((v) => v === undefined || (v !== null && typeof v === 'object'))) throw new Error('expected a value or a list of values');
  if (option.isBoolean()) {
    if (scalars.length !== 1 || typeof scalars[0] !== 'boolean') throw new Error('expected true or false');
    return option.negate ? !scalars[0] : scalars[0];
  }
  if (scalars.length > 1 && !Array.isArray(option.defaultValue) && !option.parseArg) throw new Error('expected one value, not a list');
  // Accumulating parsers (lists) start from the default, as on the command line.
  let value: unknown = Array.isArray(current) ? [] : current;
  if (option.defaultValue !== undefined && Array.isArray(option.defaultValue)) value = [];
  for (const scalar of scalars) {
    const text = scalar === null ? '' : String(scalar);
    value = option.parseArg ? option.parseArg(text, value as never) : text;
  }
  return value;
}

/** The effective configuration, as --config reads it. */
export function printConfig(command: Command): string {
  const out: Record<string, unknown> = {};
  for (const option of command.options) {
    const key = keyOf(option);
    if (OWN.has(key)) continue;
    const value = command.getOptionValue(option.attributeName());
    if (value === undefined) continue;
    out[key] = option.parseArg === (durationOption as unknown) && typeof value === 'number' ? formatGoDuration(value) : value;
  }
  return yaml().stringify(out);
}
