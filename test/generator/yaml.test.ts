/**
 * generator/emit/yaml.ts prints CRD manifests: it must print exactly what the `yaml` package's
 * stringify(value, { lineWidth: 0, version: '1.1' }) prints, for any JSON document.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { stringifyYaml } from '../../generator/emit/yaml.js';
import { compile } from '../../generator/index.js';
import { REPO } from './helpers.js';

const reference = (value: unknown) => stringify(value, { lineWidth: 0, version: '1.1' });

/** Strings made of the characters YAML cares about: indicators, quotes, spaces, newlines, digits, 1.1 words. */
const trickyString = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'B', ' ', ':', '#', '-', '?', '"', "'", '\n', '\t', '0', '1', '.', 'e', '|', '>', '{', '[', ',', '*', '&', '!', '%', '@', '`', '~', 'é', '\u0007') }),
  fc.constantFrom('', 'yes', 'No', 'on', 'OFF', 'y', 'null', '~', '<<', '0x1F', '012', '1_000', '1:30', '.inf', '-.5', '1e3', '2024-01-02', '---', '...', '--- x', 'a\n---\nb', ' lead', 'trail ', 'x: y', 'a #b'),
  fc.string(),
);
const key = fc.oneof(fc.constantFrom('description', 'type', 'x-kubernetes-list-type', 'on', '200', 'a b', 'k: v', ''), trickyString);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    trickyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}));

describe('stringifyYaml', () => {
  test('prints what the yaml package prints, for random JSON documents', () => {
    fc.assert(
      fc.property(fc.oneof(json.object, json.array), (doc) => {
        assert.equal(stringifyYaml(doc), reference(doc));
      }),
      { numRuns: 2000 },
    );
  });

  test('prints what the yaml package prints, for every CRD kgen emits for the examples', () => {
    const crds = compile({ apisDir: join(REPO, 'apis') }).files.filter((f) => f.path.startsWith('crds/'));
    assert.ok(crds.length > 0);
    for (const file of crds) {
      for (const doc of parseAllDocuments(file.content)) {
        const value = doc.toJS();
        assert.equal(stringifyYaml(value), reference(value), file.path);
      }
    }
  });
});
