/**
 * kubectl explain names IntOrString and Quantity fields as it does against kube-apiserver
 * (`<IntOrString>`, `<map[string]Quantity>`), with kubectl 1.27, 1.30 and 1.33: kgen publishes
 * them as references to `io.k8s.apimachinery.pkg.util.intstr.IntOrString` and
 * `io.k8s.apimachinery.pkg.api.resource.Quantity`, components without a `type`, and kubectl's
 * plaintext template names a field after such a reference (inline, it could only print
 * `<Object>`). Through `/openapi/v2` (`--output=plaintext-openapiv2`) kube's definitions are
 * strings, so kubectl prints `<string>` there, as against kube.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectlBinary, REPO, removeDir, startKgen, type KgenServer } from './harness.js';

const VERSIONS = ['1.27', '1.30', '1.33'];

describe('kubectl explain: IntOrString and Quantity fields', () => {
  let server: KgenServer;
  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
  });
  after(async () => {
    await server?.stop();
    if (server) removeDir(server.dataDir);
  });

  for (const v of VERSIONS) {
    describe(`kubectl ${v}`, () => {
      const explain = (...args: string[]) => {
        const path = kubectlBinary(v);
        const r = spawnSync(path, ['explain', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: server.kubeconfig } });
        if (r.error) throw r.error;
        assert.equal(r.status, 0, `kubectl ${v} explain ${args.join(' ')} exited ${r.status}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
        return r.stdout;
      };

      it('lists a Deployment\'s maxSurge and maxUnavailable as <IntOrString>', () => {
        const out = explain('deployments.spec.strategy.rollingUpdate');
        assert.match(out, /^ {2}maxSurge\t<IntOrString>$/m);
        assert.match(out, /^ {2}maxUnavailable\t<IntOrString>$/m);
      });

      it('explains one IntOrString field with its own description, then IntOrString\'s', () => {
        const out = explain('deployment.spec.strategy.rollingUpdate.maxSurge');
        assert.match(out, /^FIELD: maxSurge <IntOrString>$/m);
        const own = out.indexOf('The maximum number of pods that can be scheduled above the desired number of');
        const type = out.indexOf('IntOrString is a type that can hold an int32 or a string.');
        assert.ok(own > 0 && type > own, out);
      });

      it('names a map of quantities <map[string]Quantity>', () => {
        assert.match(explain('pvc.spec.resources.requests'), /^FIELD: requests <map\[string\]Quantity>$/m);
        assert.match(explain('pvc.spec.resources'), /^ {2}limits\t<map\[string\]Quantity>$/m);
        assert.match(explain('deployments.spec.template.spec.volumes.emptyDir'), /^ {2}sizeLimit\t<Quantity>$/m);
      });

      it('names the fields of a compiled kind of your own the same way', () => {
        const out = explain('widgets.spec');
        assert.match(out, /^ {2}port\t<IntOrString>$/m);
        assert.match(out, /^ {2}limits\t<map\[string\]Quantity>$/m);
      });

      it('prints <string> through /openapi/v2, as kube\'s definitions are strings there', () => {
        const out = explain('deployments.spec.strategy.rollingUpdate', '--output=plaintext-openapiv2');
        assert.match(out, /^ {3}maxSurge\t<string>$/m);
        assert.match(explain('pvc.spec.resources', '--output=plaintext-openapiv2'), /^ {3}requests\t<map\[string\]string>$/m);
      });
    });
  }
});
