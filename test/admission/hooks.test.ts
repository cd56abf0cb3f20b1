/**
 * Typed in-process admission: hooks attached to a generated registration
 * (`widgets.admission({...})`) and admission plugins, in kube's order — mutating plugins, the
 * resource's mutate hooks, defaulting and validation, validating plugins, the validate hooks,
 * storage — with the old and new objects, the user and dryRun, for create, update, status,
 * patch, scale and delete.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { AdmissionAttributes, UserInfo } from '../../runtime/api/auth.js';
import { newInvalid } from '../../runtime/api/status.js';
import type { AdmissionContext, AdmissionPlugin, TypedAdmissionAttributes } from '../../runtime/api/admission.js';
import { loadAdmissionModules, newAdmissionChain } from '../../runtime/admission/setup.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { widgets } from '../../generated/storage/widgets.example.com/v1/widgets.js';
import { GENERATED_DIR, WIDGETS, startHarness, type Harness } from './helpers.js';

const TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));

interface Seen {
  step: string;
  operation: string;
  subresource: string;
  replicas?: number;
  oldReplicas?: number;
  color?: string;
  /** Whether the object has a uid yet (the store sets it before validating admission). */
  hasUID: boolean;
  user: string;
  groups: string[];
  dryRun: boolean;
  optionsKind?: unknown;
  kind: string;
}

let seen: Seen[] = [];
/** What the validate hook refuses; reset per test. */
let refuse: ((w: Widget) => Error | undefined) | undefined;

function record(step: string, attrs: AdmissionAttributes | TypedAdmissionAttributes<Widget>): void {
  const spec = (attrs.object as { spec?: { replicas?: number; color?: string } } | undefined)?.spec;
  const oldSpec = (attrs.oldObject as { spec?: { replicas?: number } } | undefined)?.spec;
  seen.push({
    step,
    operation: attrs.operation,
    subresource: attrs.subresource,
    replicas: spec?.replicas,
    oldReplicas: oldSpec?.replicas,
    color: spec?.color,
    hasUID: attrs.object?.metadata?.uid !== undefined,
    user: attrs.user.username,
    groups: attrs.user.groups,
    dryRun: attrs.dryRun,
    optionsKind: attrs.options?.kind,
    kind: attrs.kind.kind,
  });
}

// Typed end to end: the hooks see Widget (attrs.object.spec.replicas is a number, not unknown).
widgets.admission({
  mutate(attrs: TypedAdmissionAttributes<Widget>, ctx: AdmissionContext) {
    record('hook.mutate', attrs);
    const w = attrs.object;
    if (w && attrs.operation === 'CREATE') {
      w.metadata = { ...w.metadata, labels: { ...(w.metadata?.labels ?? {}), 'mutated-by': 'typed-hook' } };
      ctx.warnings.push('labelled by the typed hook');
    }
  },
  validate(attrs) {
    record('hook.validate', attrs);
    const why = attrs.object && refuse?.(attrs.object);
    if (why) throw why;
  },
});

const plugin: AdmissionPlugin = {
  name: 'Recorder',
  mutate: (attrs) => record('plugin.mutate', attrs),
  validate: (attrs) => record('plugin.validate', attrs),
};

const alice: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const widget = (name: string, replicas: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'widgets.example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { replicas },
  ...extra,
});

describe('typed in-process admission hooks', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(newAdmissionChain([plugin]));
  });
  after(() => h.close());
  beforeEach(() => {
    seen = [];
    refuse = undefined;
  });

  it('create: plugins then the typed hook mutate, then the store, then validate; with the user', async () => {
    const res = await h.request('POST', WIDGETS, { body: widget('w-create', 3), user: alice });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(
      seen.map((s) => s.step),
      ['plugin.mutate', 'hook.mutate', 'plugin.validate', 'hook.validate'],
    );
    assert.ok(seen.every((s) => s.operation === 'CREATE' && s.user === 'alice' && s.dryRun === false && s.optionsKind === 'CreateOptions'));
    assert.deepEqual(seen[0]!.groups, ['devs', 'system:authenticated']);
    // Defaults are applied at decoding, as kube's decoder does: mutate sees them.
    assert.equal(seen[1]!.color, 'red');
    // Validating admission runs inside the store, after its create metadata and validation.
    assert.deepEqual(seen.map((s) => s.hasUID), [false, false, true, true]);
    assert.equal(res.body.metadata.labels['mutated-by'], 'typed-hook', 'the mutation is stored');
    assert.deepEqual(res.headers.Warning, ['299 - "labelled by the typed hook"']);
    const stored = await h.request('GET', `${WIDGETS}/w-create`);
    assert.equal(stored.body.metadata.labels['mutated-by'], 'typed-hook');
  });

  it('a request without a user is admitted as system:anonymous', async () => {
    assert.equal((await h.request('POST', WIDGETS, { body: widget('w-anon', 1) })).status, 201);
    assert.equal(seen[0]!.user, 'system:anonymous');
  });

  it('update and patch: the hooks see the old and the new object; patch is admitted after it is applied', async () => {
    const created = await h.request('POST', WIDGETS, { body: widget('w-update', 2) });
    seen = [];
    const put = await h.request('PUT', `${WIDGETS}/w-update`, { body: { ...created.body, spec: { replicas: 4 } }, user: alice });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(
      seen.map((s) => [s.step, s.operation, s.oldReplicas, s.replicas, s.optionsKind]),
      [
        ['plugin.mutate', 'UPDATE', 2, 4, 'UpdateOptions'],
        ['hook.mutate', 'UPDATE', 2, 4, 'UpdateOptions'],
        ['plugin.validate', 'UPDATE', 2, 4, 'UpdateOptions'],
        ['hook.validate', 'UPDATE', 2, 4, 'UpdateOptions'],
      ],
    );
    seen = [];
    const patch = await h.request('PATCH', `${WIDGETS}/w-update`, { body: { spec: { replicas: 6 } }, contentType: 'application/merge-patch+json' });
    assert.equal(patch.status, 200);
    assert.deepEqual(
      seen.map((s) => [s.step, s.operation, s.oldReplicas, s.replicas]),
      [
        ['plugin.mutate', 'UPDATE', 4, 6],
        ['hook.mutate', 'UPDATE', 4, 6],
        ['plugin.validate', 'UPDATE', 4, 6],
        ['hook.validate', 'UPDATE', 4, 6],
      ],
    );
  });

  it('status writes are admitted with subresource status', async () => {
    const created = await h.request('POST', WIDGETS, { body: widget('w-status', 1) });
    seen = [];
    const res = await h.request('PUT', `${WIDGETS}/w-status/status`, { body: { ...created.body, status: { replicas: 1 } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(new Set(seen.map((s) => s.subresource)), new Set(['status']));
    assert.equal(seen.length, 4);
  });

  it('scale writes reach plugins with the autoscaling/v1 Scale; the typed Widget hooks are not called', async () => {
    await h.request('POST', WIDGETS, { body: widget('w-scale', 1) });
    seen = [];
    const res = await h.request('PATCH', `${WIDGETS}/w-scale/scale`, { body: { spec: { replicas: 5 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      seen.map((s) => [s.step, s.kind, s.subresource, s.oldReplicas, s.replicas]),
      [
        ['plugin.mutate', 'Scale', 'scale', 1, 5],
        ['plugin.validate', 'Scale', 'scale', 1, 5],
      ],
    );
  });

  it('delete: admission sees the object being deleted as the old object', async () => {
    await h.request('POST', WIDGETS, { body: widget('w-delete', 7) });
    seen = [];
    const res = await h.request('DELETE', `${WIDGETS}/w-delete`, { user: alice });
    assert.equal(res.status, 200);
    assert.deepEqual(
      seen.map((s) => [s.step, s.operation, s.oldReplicas, s.replicas, s.optionsKind, s.user]),
      [
        ['plugin.mutate', 'DELETE', 7, undefined, 'DeleteOptions', 'alice'],
        ['hook.mutate', 'DELETE', 7, undefined, 'DeleteOptions', 'alice'],
        ['plugin.validate', 'DELETE', 7, undefined, 'DeleteOptions', 'alice'],
        ['hook.validate', 'DELETE', 7, undefined, 'DeleteOptions', 'alice'],
      ],
    );
  });

  it('dryRun is visible to every hook, and nothing is stored', async () => {
    const res = await h.request('POST', `${WIDGETS}?dryRun=All`, { body: widget('w-dry', 1) });
    assert.equal(res.status, 201);
    assert.equal(res.body.metadata.labels['mutated-by'], 'typed-hook');
    assert.ok(seen.length === 4 && seen.every((s) => s.dryRun));
    assert.equal((await h.request('GET', `${WIDGETS}/w-dry`)).status, 404);
  });

  it('a denial is kube\'s 403 for plain errors, and the hook\'s own Status otherwise; nothing is stored', async () => {
    refuse = (w) => ((w.spec.replicas ?? 0) > 10 ? new Error('replicas must be at most 10') : undefined);
    const denied = await h.request('POST', WIDGETS, { body: widget('w-big', 11) });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.reason, 'Forbidden');
    assert.equal(denied.body.message, 'widgets.widgets.example.com "w-big" is forbidden: replicas must be at most 10');
    assert.deepEqual(denied.body.details, { name: 'w-big', group: 'widgets.example.com', kind: 'widgets' });
    assert.equal((await h.request('GET', `${WIDGETS}/w-big`)).status, 404);

    refuse = (w) => newInvalid({ group: 'widgets.example.com', kind: 'Widget' }, w.metadata?.name ?? '', [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: 12: too many' }]);
    const invalid = await h.request('POST', WIDGETS, { body: widget('w-bigger', 12) });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body.message, 'Widget.widgets.example.com "w-bigger" is invalid: spec.replicas: Invalid value: 12: too many');
  });

  it('an admission module attaches typed hooks to the generated registrations and exports plugins', async () => {
    // Inside the package (an ESM scope), as a user's module sits in their project.
    mkdirSync(TMP, { recursive: true });
    const dir = mkdtempSync(join(TMP, 'admission-'));
    try {
      const module = join(dir, 'admission.ts');
      writeFileSync(
        module,
        [
          `import { widgetclasses } from ${JSON.stringify(join(GENERATED_DIR, 'storage/widgets.example.com/v1/widgetclasses.js'))};`,
          `widgetclasses.admission({ mutate(attrs) { if (attrs.object) attrs.object.provisioner = attrs.object.provisioner.toLowerCase(); } });`,
          `export default [{ name: 'NoDelete', handles: (op) => op === 'DELETE', validate() { throw new Error('deletes are off'); } }];`,
        ].join('\n'),
      );
      const chain = newAdmissionChain();
      await loadAdmissionModules([module], chain);
      const h2 = await startHarness(chain);
      try {
        const wdc = { apiVersion: 'widgets.example.com/v1', kind: 'WidgetClass', metadata: { name: 'fast' }, provisioner: 'Example.COM/Fast' };
        const created = await h2.request('POST', '/apis/widgets.example.com/v1/widgetclasses', { body: wdc });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.provisioner, 'example.com/fast');
        const deleted = await h2.request('DELETE', '/apis/widgets.example.com/v1/widgetclasses/fast');
        assert.equal(deleted.status, 403);
        assert.equal(deleted.body.message, 'widgetclasses.widgets.example.com "fast" is forbidden: deletes are off');
      } finally {
        await h2.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
