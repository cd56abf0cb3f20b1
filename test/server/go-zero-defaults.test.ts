/**
 * A built-in kind's plain Go fields: their zero value ("", 0, false) is what Go decodes for an
 * absent field, so kube's defaulters replace it (`protocol: ""` is TCP, a probe's `periodSeconds:
 * 0` is 10), while a Go pointer's zero was set and stays (`replicas: 0`). Custom resources keep
 * what was sent (structural defaulting fills absent fields only).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, type TestServer } from './testserver.js';

describe('defaults of a built-in kind replace the Go zero value of plain fields', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('Deployment: empty enums and zero probe timings are defaulted as kube does; replicas 0 (a pointer) stays', async () => {
    const r = await t.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'zeros' },
        spec: {
          replicas: 0,
          selector: { matchLabels: { a: 'b' } },
          template: {
            metadata: { labels: { a: 'b' } },
            spec: {
              restartPolicy: '',
              dnsPolicy: '',
              containers: [
                {
                  name: 'c',
                  image: 'x:1',
                  terminationMessagePolicy: '',
                  ports: [{ containerPort: 80, protocol: '' }],
                  readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 0, timeoutSeconds: 0, successThreshold: 0, failureThreshold: 0 },
                },
              ],
            },
          },
        },
      },
    });
    assert.equal(r.status, 201, r.text);
    const spec = r.body.spec;
    assert.equal(spec.replicas, 0);
    assert.equal(spec.template.spec.restartPolicy, 'Always');
    assert.equal(spec.template.spec.dnsPolicy, 'ClusterFirst');
    const c = spec.template.spec.containers[0];
    assert.equal(c.terminationMessagePolicy, 'File');
    assert.deepEqual(c.ports, [{ containerPort: 80, protocol: 'TCP' }]);
    assert.deepEqual(c.readinessProbe, { tcpSocket: { port: 80 }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
  });

  it('a custom resource keeps a zero it was sent', async () => {
    const r = await t.request('POST', WIDGETS, { body: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'z' }, spec: { replicas: 0 } } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.replicas, 0);
  });
});
