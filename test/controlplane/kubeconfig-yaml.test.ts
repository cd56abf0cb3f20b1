/**
 * kubeconfigYAML: the kubeconfig is written without the yaml package (kept off the start-up path);
 * whatever the values, the text must read back, with a YAML parser, as the same document.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify } from 'yaml';
import { buildKubeconfig, kubeconfigYAML } from '../../runtime/controlplane/kubeconfig.js';

describe('kubeconfigYAML', () => {
  it('writes what the yaml package writes for the usual kubeconfigs', () => {
    const plain = buildKubeconfig({ server: 'http://127.0.0.1:8080' });
    assert.equal(kubeconfigYAML(plain), stringify(plain));
    const tls = buildKubeconfig({ server: 'https://10.0.0.1:6443', certificateAuthority: 'CA PEM\n', clientCertificate: 'CERT\n', clientKey: 'KEY\n' });
    assert.equal(kubeconfigYAML(tls), stringify(tls));
  });

  it('quotes strings that would read back as something else', () => {
    const tricky = ['true', 'no', 'null', '~', '123', '1e3', '-x', '.5', 'a: b', '#c', 'https://[::1]:6443', ' lead', 'trail ', '', 'x\ny', '"q"', "it's", '{a}', '[b]', '*ref', '&anchor', '!tag', '%p', '@at', '`tick', 'ü'];
    for (const value of tricky) {
      const cfg = buildKubeconfig({ server: value, token: value, insecureSkipTLSVerify: true });
      assert.deepEqual(parse(kubeconfigYAML(cfg)), cfg, JSON.stringify(value));
    }
  });
});
