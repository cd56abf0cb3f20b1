/**
 * A CRD with conversion strategy Webhook, with real kubectl against `kgen serve`: v1 (storage)
 * has spec.size, v2 spec.replicas, and an HTTPS conversion webhook (its own CA, given as caBundle)
 * renames the field. kubectl creates through v1, reads and patches through v2
 * (`kubectl get widgets.v2.conv.example.com`), and when the webhook is down sees kube's error.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { startConversionWebhook, type ConversionWebhookServer } from '../apiextensions/conversion-webhook-server.js';
import { REPO, removeDir, startKgen, table, tempDir, type KgenServer, type RunResult } from './harness.js';

/**
 * kubectl run asynchronously: the webhook answers from this process, so the event loop must keep
 * running while kubectl waits on kgen (harness's kubectl() blocks it).
 */
function kubectl(kubeconfig: string, args: string[], input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (err) => reject(new Error(`kubectl could not be run (it must be on PATH): ${err.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

async function kubectlOk(kubeconfig: string, args: string[], input?: string): Promise<string> {
  const r = await kubectl(kubeconfig, args, input);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

function crd(webhook: ConversionWebhookServer): string {
  const schema = (field: string) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'integer' } } } } } });
  const column = (field: string) => [{ name: 'Count', type: 'integer', jsonPath: `.spec.${field}` }];
  return JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.conv.example.com' },
    spec: {
      group: 'conv.example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema('size'), additionalPrinterColumns: column('size') },
        { name: 'v2', served: true, storage: false, schema: schema('replicas'), additionalPrinterColumns: column('replicas') },
      ],
      conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: `${webhook.url}/convert`, caBundle: webhook.caBundle }, conversionReviewVersions: ['v1'] } },
    },
  });
}

describe('CRD conversion webhook with kubectl', () => {
  let server: KgenServer | undefined;
  let webhook: ConversionWebhookServer | undefined;
  const dataDir = tempDir('crd-conversion');
  after(async () => {
    await server?.stop();
    await webhook?.close();
    removeDir(dataDir);
  });

  it('reads and patches through v2, and reports a webhook that is down', async () => {
    webhook = await startConversionWebhook();
    server = await startKgen({ generatedDir: join(REPO, 'generated'), dataDir });
    const k = (...args: string[]) => kubectlOk(server!.kubeconfig, args);
    await kubectlOk(server.kubeconfig, ['apply', '-f', '-'], crd(webhook));
    await k('wait', '--for=condition=Established', 'crd/widgets.conv.example.com', '--timeout=20s');
    await kubectlOk(server.kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'conv.example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { size: 4 } }));

    const got = JSON.parse(await k('get', 'widgets.v2.conv.example.com', 'w1', '-n', 'default', '-o', 'json'));
    assert.deepEqual([got.apiVersion, got.spec], ['conv.example.com/v2', { replicas: 4 }]);
    const rows = table(await k('get', 'widgets.v2.conv.example.com', '-n', 'default'));
    assert.deepEqual(rows.map((r) => r.slice(0, 2)), [
      ['NAME', 'COUNT'],
      ['w1', '4'],
    ]);

    await k('patch', 'widgets.v2.conv.example.com', 'w1', '-n', 'default', '--type=merge', '-p', '{"spec":{"replicas":9}}');
    assert.equal(await k('get', 'widgets.v1.conv.example.com', 'w1', '-n', 'default', '-o', 'jsonpath={.spec.size}'), '9');
    assert.ok(webhook.reviews.length > 0);

    const port = new URL(webhook.url).port;
    await webhook.close();
    const down = await kubectl(server.kubeconfig, ['get', 'widgets.v2.conv.example.com', 'w1', '-n', 'default']);
    assert.notEqual(down.code, 0);
    assert.equal(
      down.stderr.trim(),
      `Error from server: conversion webhook for conv.example.com/v1, Kind=Widget failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    // The storage version needs no conversion.
    assert.equal(await k('get', 'widgets.v1.conv.example.com', 'w1', '-n', 'default', '-o', 'jsonpath={.spec.size}'), '9');
  });
});
