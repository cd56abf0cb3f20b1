/**
 * metav1.LabelSelectorAsSelector (runtime/api/labels.ts), the one label-selector implementation
 * the webhook matcher, ClusterRole aggregation, `?labelSelector=` and the client's listers share.
 * The string syntax is tested in test/registry/selectors.test.ts. The cases below are where the
 * two former copies (webhook matcher, aggregation) differed from kube: a nil selector, In/NotIn
 * without values, Exists with values, unknown operators, bad keys and values.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LabelSelectorError, labelSelectorAsSelector, parseLabelSelector, type MetaLabelSelector } from '../../runtime/api/labels.js';

const labels = { app: 'web', tier: 'front', env: 'prod' };

function refused(selector: MetaLabelSelector, message: string): void {
  assert.throws(() => labelSelectorAsSelector(selector), (err: unknown) => {
    assert.ok(err instanceof LabelSelectorError);
    assert.equal(err.message, message);
    return true;
  });
}

describe('labelSelectorAsSelector', () => {
  it('matches as the string syntax does, requirement by requirement', () => {
    const cases: Array<[MetaLabelSelector, string]> = [
      [{ matchLabels: { app: 'web' } }, 'app=web'],
      [{ matchLabels: { app: 'db' } }, 'app=db'],
      [{ matchLabels: { missing: 'x' } }, 'missing=x'],
      [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }] }, 'env in (prod,dev)'],
      [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, 'env in (dev)'],
      [{ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, 'env notin (dev)'],
      [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, 'zone notin (a)'],
      [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, 'tier'],
      [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, '!tier'],
      [{ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, '!zone'],
      [{ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, 'app=web,env in (dev)'],
    ];
    for (const [meta, text] of cases) {
      const a = labelSelectorAsSelector(meta);
      const b = parseLabelSelector(text);
      assert.equal(a.matches(labels), b.matches(labels), text);
      assert.equal(a.matches(undefined), b.matches(undefined), `${text} on no labels`);
      assert.deepEqual(a.requirements, b.requirements, text);
    }
  });

  it('selects everything with {} and nothing with nil (labels.Everything / labels.Nothing)', () => {
    assert.equal(labelSelectorAsSelector({}).matches(labels), true);
    assert.equal(labelSelectorAsSelector({}).empty(), true);
    assert.equal(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }).matches(undefined), true);
    for (const nil of [undefined, null]) {
      assert.equal(labelSelectorAsSelector(nil).matches(labels), false);
      assert.equal(labelSelectorAsSelector(nil).matches({}), false);
      assert.equal(labelSelectorAsSelector(nil).empty(), false);
    }
  });

  it('orders requirements by key and values as a sorted set, as selector.Add and NewRequirement do', () => {
    const s = labelSelectorAsSelector({ matchLabels: { b: '1', a: '2' }, matchExpressions: [{ key: 'aa', operator: 'In', values: ['y', 'x', 'y'] }] });
    assert.deepEqual(s.requirements.map((r) => [r.key, r.operator, r.values]), [['a', '=', ['2']], ['aa', 'in', ['x', 'y']], ['b', '=', ['1']]]);
  });

  it('refuses an unknown operator (the copies matched nothing)', () => {
    refused({ matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] }, '"Gt" is not a valid label selector operator');
    refused({ matchExpressions: [{ key: 'app', operator: 'in', values: ['web'] }] }, '"in" is not a valid label selector operator');
  });

  it('refuses In and NotIn without values (the copies: In matched nothing, NotIn everything)', () => {
    refused({ matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }, "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty");
    refused({ matchExpressions: [{ key: 'app', operator: 'NotIn' }] }, "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty");
  });

  it('refuses Exists and DoesNotExist with values (the copies ignored them)', () => {
    refused({ matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] }, 'values: Invalid value: []string{"web"}: values set must be empty for exists and does not exist');
    refused({ matchExpressions: [{ key: 'app', operator: 'DoesNotExist', values: ['a', 'b'] }] }, 'values: Invalid value: []string{"a", "b"}: values set must be empty for exists and does not exist');
  });

  it('refuses bad keys and values with labels.NewRequirement’s paths (the copies compared them)', () => {
    refused({ matchLabels: { '-app': 'web' } }, 'key: Invalid value: "-app": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')');
    assert.throws(() => labelSelectorAsSelector({ matchLabels: { app: 'a b' } }), /^LabelSelectorError: values\[0\]: Invalid value: "a b": a valid label must be/);
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'app', operator: 'In', values: ['ok', '-bad-'] }] }), /values\[1\]: Invalid value: "-bad-"/);
    // Several errors of one requirement are aggregated: [a, b].
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a/b/c', operator: 'In', values: [] }] }), /^LabelSelectorError: \[key: Invalid value: "a\/b\/c": .*, values: Invalid value: \[\]string\{\}: .*\]$/);
  });
});
