/**
 * kube's conversion convention with real kubectl against `kgen serve`: fields a version cannot
 * hold survive reads and writes through that version in the `<group>/conversion-data` annotation
 * (fixture test/fixtures/conversion-preserve: v1 stores and has spec.priority and
 * spec.parts[].weight, which v1beta1 lacks; v1beta1 has spec.window.note, which v1 lacks).
 * Written via v1, read, applied (client- and server-side), replaced and patched via v1beta1, read via v1: the fields are intact and
 * the annotation is gone; and the other way round for the field only v1beta1 has.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { kubectlOk, REPO, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';

const V1 = 'gadgets.v1.gadgets.example.com';
const BETA = 'gadgets.v1beta1.gadgets.example.com';
const ANNOTATION = 'gadgets.example.com/conversion-data';

describe('kubectl: fields a version cannot hold survive through the conversion-data annotation', () => {
  let work: string;
  let dataDir: string;
  let server: KgenServer;
  const k = (args: string[], input?: string) => kubectlOk(server.kubeconfig, args, input);
  const get = (resource: string, name: string) => JSON.parse(k(['get', resource, name, '-n', 'default', '-o', 'json']));

  before(async () => {
    mkdirSync(join(REPO, 'test/.tmp'), { recursive: true });
    // Inside the repository, so the generated modules resolve kgen/conversion.
    work = mkdtempSync(join(REPO, 'test/.tmp/e2e-conversion-data-'));
    const result = generate({ apisDir: join(REPO, 'test/fixtures/conversion-preserve/apis'), outDir: join(work, 'generated') });
    assert.ok(result.ok, result.diagnostics.map((d) => formatDiagnostic(d)).join('\n'));
    dataDir = tempDir('conversion-data');
    server = await startKgen({ generatedDir: join(work, 'generated'), dataDir });
  });
  after(async () => {
    await server?.stop();
    removeDir(dataDir);
    rmSync(work, { recursive: true, force: true });
  });

  it('a v1-only field: written via v1, read, applied and replaced via v1beta1, read via v1 intact', () => {
    k(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g1', namespace: 'default', labels: { app: 'demo' } },
      spec: { replicas: 3, priority: 5, color: 'red', parts: [{ name: 'a', weight: 2 }, { name: 'b' }], window: { start: 'mon' } },
    }));

    const beta = get(BETA, 'g1');
    assert.equal(beta.apiVersion, 'gadgets.example.com/v1beta1');
    assert.deepEqual(beta.spec, { size: 3, color: 'red', parts: [{ name: 'a' }, { name: 'b' }], window: { start: 'mon' } });
    assert.deepEqual(JSON.parse(beta.metadata.annotations[ANNOTATION]), { v1: { spec: { parts: { '0': { weight: 2 } }, priority: 5 } } });

    // kubectl apply of a v1beta1 manifest that knows nothing of priority or weights.
    k(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1beta1',
      kind: 'Gadget',
      metadata: { name: 'g1', namespace: 'default' },
      spec: { size: 4, color: 'green', parts: [{ name: 'a' }, { name: 'b' }], window: { start: 'tue' } },
    }));
    let v1 = get(V1, 'g1');
    assert.deepEqual(v1.spec, { replicas: 4, priority: 5, color: 'green', parts: [{ name: 'a', weight: 2 }, { name: 'b' }], window: { start: 'tue' } });
    assert.equal(v1.metadata.annotations?.[ANNOTATION], undefined, 'the annotation is removed when the fields come back');

    // Read via v1beta1, edit, write back with PUT (kubectl replace): the annotation rides along.
    const edited = get(BETA, 'g1');
    edited.spec.color = 'red';
    k(['replace', '-f', '-'], JSON.stringify(edited));
    v1 = get(V1, 'g1');
    assert.deepEqual(v1.spec, { replicas: 4, priority: 5, color: 'red', parts: [{ name: 'a', weight: 2 }, { name: 'b' }], window: { start: 'tue' } });
    assert.equal(v1.metadata.annotations?.[ANNOTATION], undefined);
    assert.deepEqual(v1.metadata.labels, { app: 'demo' });

    // A merge patch via v1beta1 too.
    k(['patch', BETA, 'g1', '-n', 'default', '--type', 'merge', '-p', '{"spec":{"size":6}}']);
    assert.deepEqual(get(V1, 'g1').spec, { replicas: 6, priority: 5, color: 'red', parts: [{ name: 'a', weight: 2 }, { name: 'b' }], window: { start: 'tue' } });
  });

  it('a v1-only field survives server-side apply through v1beta1', () => {
    k(['apply', '--server-side', '--field-manager', 'v1-tool', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g3', namespace: 'default' },
      spec: { replicas: 2, priority: 7, color: 'red', parts: [{ name: 'a', weight: 1 }] },
    }));
    k(['apply', '--server-side', '--force-conflicts', '--field-manager', 'beta-tool', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1beta1',
      kind: 'Gadget',
      metadata: { name: 'g3', namespace: 'default' },
      spec: { size: 5, parts: [{ name: 'a' }] },
    }));
    const v1 = get(V1, 'g3');
    assert.deepEqual(v1.spec, { replicas: 5, priority: 7, color: 'red', parts: [{ name: 'a', weight: 1 }] });
    assert.equal(v1.metadata.annotations?.[ANNOTATION], undefined);
  });

  it('a v1-only field survives a client-side apply followed by kubectl apply --server-side through v1beta1', () => {
    // The upgrade hands last-applied-configuration to the server-side applier, which omits it: only
    // that annotation may go, not the conversion data nobody manages beside it.
    k(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g4', namespace: 'default' },
      spec: { replicas: 2, priority: 8, color: 'red' },
    }));
    k(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1beta1',
      kind: 'Gadget',
      metadata: { name: 'g4', namespace: 'default' },
      spec: { size: 2, color: 'red' },
    }));
    k(['apply', '--server-side', '--force-conflicts', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1beta1',
      kind: 'Gadget',
      metadata: { name: 'g4', namespace: 'default' },
      spec: { size: 3 },
    }));
    const v1 = get(V1, 'g4');
    assert.equal(v1.spec.priority, 8, JSON.stringify(v1));
    assert.equal(v1.spec.replicas, 3);
    assert.equal(v1.metadata.annotations?.[ANNOTATION], undefined);
  });

  it('client-side apply, then server-side applies through v1beta1 that give up an annotation: only that annotation goes', () => {
    // The server-side applier's prune walks metadata.annotations (structured-merge-diff's rules):
    // it removes the annotation the applier no longer applies and keeps the conversion data,
    // which no manager owns, because another manager (kubectl-last-applied) still owns an
    // annotation beside it.
    k(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g5', namespace: 'default' },
      spec: { replicas: 2, priority: 9, color: 'red' },
    }));
    const beta = (annotations: Record<string, string> | undefined, spec: Record<string, unknown>) =>
      JSON.stringify({ apiVersion: 'gadgets.example.com/v1beta1', kind: 'Gadget', metadata: { name: 'g5', namespace: 'default', ...(annotations ? { annotations } : {}) }, spec });
    k(['apply', '-f', '-'], beta({ team: 'a' }, { size: 2, color: 'red' }));
    k(['apply', '--server-side', '--force-conflicts', '-f', '-'], beta({ team: 'a' }, { size: 3 }));
    assert.equal(get(BETA, 'g5').metadata.annotations.team, 'a');
    k(['apply', '--server-side', '-f', '-'], beta(undefined, { size: 4 }));
    const viaBeta = get(BETA, 'g5');
    assert.equal(viaBeta.metadata.annotations.team, undefined, 'the annotation the applier gave up is pruned');
    assert.deepEqual(JSON.parse(viaBeta.metadata.annotations[ANNOTATION]), { v1: { spec: { priority: 9 } } });
    const v1 = get(V1, 'g5');
    assert.deepEqual(v1.spec, { replicas: 4, priority: 9, color: 'red' }, JSON.stringify(v1)); // color stays: kubectl-create owns it
    assert.equal(v1.metadata.annotations?.[ANNOTATION], undefined);
  });

  it('a v1beta1-only field: written via v1beta1, patched via v1, read via v1beta1 intact', () => {
    k(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'gadgets.example.com/v1beta1',
      kind: 'Gadget',
      metadata: { name: 'g2', namespace: 'default' },
      spec: { size: 1, window: { start: 'sat', note: 'weekends only' } },
    }));
    const v1 = get(V1, 'g2');
    assert.deepEqual(v1.spec, { replicas: 1, window: { start: 'sat' } });
    assert.deepEqual(JSON.parse(v1.metadata.annotations[ANNOTATION]), { v1beta1: { spec: { window: { note: 'weekends only' } } } });
    k(['patch', V1, 'g2', '-n', 'default', '--type', 'merge', '-p', '{"spec":{"priority":9}}']);
    const beta = get(BETA, 'g2');
    assert.deepEqual(beta.spec, { size: 1, window: { start: 'sat', note: 'weekends only' } });
    assert.deepEqual(JSON.parse(beta.metadata.annotations[ANNOTATION]), { v1: { spec: { priority: 9 } } });
    assert.deepEqual(get(V1, 'g2').spec, { replicas: 1, priority: 9, window: { start: 'sat' } });
  });
});
