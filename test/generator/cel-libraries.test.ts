/**
 * A compiled kind's `@kgen:validation` rules may use kube's CEL libraries (quantity, ip, cidr,
 * url, format, semver, sets, optional types): the generator compiles them in the server's
 * environment, without diagnostics, and writes them into the CRD.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compile } from '../../generator/index.js';
import { cleanedTempDirs, writeApis } from './helpers.js';

const tmp = cleanedTempDirs();

describe('compiled kinds and kube CEL libraries', () => {
  test('rules using the libraries compile with no diagnostics', () => {
    const apis = writeApis(tmp('cel-libraries'), {
      'disks.example.com/v1/disk.ts': `/** @kgen:resource */
export interface Disk {
  spec: DiskSpec;
}

/**
 * @kgen:validation rule="isQuantity(self.size) && quantity(self.size).isLessThan(quantity('10Gi'))" message="size below 10Gi"
 * @kgen:validation rule="ip(self.addr).family() == 4 && cidr('10.0.0.0/8').containsIP(self.addr)" message="an IPv4 address in 10.0.0.0/8"
 * @kgen:validation rule="!format.dns1123Label().validate(self.name).hasValue() && isURL(self.endpoint) && isSemver(self.version, true)"
 * @kgen:validation rule="sets.contains(['a', 'b'], self.tags) && self.?zone.orValue('z1') != ''"
 */
export interface DiskSpec {
  /** @maxLength 32 */
  size: string;
  /** @maxLength 45 */
  addr: string;
  /** @maxLength 63 */
  name: string;
  /** @maxLength 200 */
  endpoint: string;
  /** @maxLength 20 */
  version: string;
  /** @maxItems 2 */
  tags: string[];
  /** @maxLength 10 */
  zone?: string;
}
`,
    });
    const result = compile({ apisDir: apis, builtins: false });
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.code} ${d.message}`),
      [],
    );
  });
});
