/**
 * core/v1 Endpoints over the HTTP API: kube's ValidateEndpoints (address syntax, names, the
 * special ranges of CVE-2021-25737 less loopback, which kgen's single-host aggregation needs),
 * and the address parser it rests on (IPv4-mapped IPv6 cannot dodge a range); kube 1.33's warnings
 * (the strategy's WarningsOnCreate/OnUpdate) for addresses not in standard form.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ipWarnings, isLinkLocalMulticast, isLinkLocalUnicast, isLoopback, isUnspecified, parseIPSloppy } from '../../../runtime/validation/ip.js';
import { startTestServer, type TestServer } from '../../server/testserver.js';

const EP = '/api/v1/namespaces/default/endpoints';
const endpoints = (name: string, subsets: unknown[]) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets });

describe('core/v1 Endpoints validation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  for (const [n, [ip, msg]] of ([
    ['169.254.169.254', 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ['::ffff:169.254.169.254', 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ['fe80::1', 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ['224.0.0.251', 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'],
    ['ff02::fb', 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'],
    ['0.0.0.0', 'may not be unspecified (0.0.0.0)'],
    ['::', 'may not be unspecified (::)'],
  ] as const).entries()) {
    it(`refuses the special address ${ip} as kube does`, async () => {
      const res = await t.request('POST', EP, { body: endpoints('special', [{ addresses: [{ ip }], ports: [{ port: 443 }] }]) });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.reason, 'Invalid');
      assert.ok(res.body.message.includes(`subsets[0].addresses[0].ip: Invalid value: "${ip}": ${msg}`), res.body.message);
      // Not on update either (nor in notReadyAddresses).
      const ok = await t.request('POST', EP, { body: endpoints(`ok-${n}`, [{ addresses: [{ ip: '10.0.0.1' }] }]) });
      assert.equal(ok.status, 201, ok.text);
      const upd = await t.request('PATCH', `${EP}/${ok.body.metadata.name}`, {
        body: { subsets: [{ notReadyAddresses: [{ ip }] }] },
        contentType: 'application/merge-patch+json',
      });
      assert.equal(upd.status, 422, upd.text);
      assert.ok(upd.body.message.includes(`subsets[0].notReadyAddresses[0].ip: Invalid value: "${ip}": ${msg}`), upd.body.message);
    });
  }

  it('accepts ordinary and loopback addresses (kgen reaches local aggregated servers and webhooks at 127.0.0.1)', async () => {
    for (const [name, ip] of [['v4', '10.1.2.3'], ['v6', '2001:db8::1'], ['lo', '127.0.0.1'], ['lo6', '::1'], ['zeros', '010.000.000.001']]) {
      const res = await t.request('POST', EP, { body: endpoints(name, [{ addresses: [{ ip, hostname: 'a-b' }], ports: [{ name: 'https', port: 443, appProtocol: 'kubernetes.io/h2c' }] }]) });
      assert.equal(res.status, 201, `${ip}: ${res.text}`);
    }
  });

  it('warns (299) for addresses not in standard form on create, update and patch, as kube 1.33 does', async () => {
    const warningsOf = (res: { headers: Headers }) => (res.headers.get('warning') ?? '').split(/, (?=299 )/).filter((w) => w !== '');
    const leading = 'subsets[0].addresses[0].ip: non-standard IP address "010.000.000.002" will be considered invalid in a future Kubernetes release: use "10.0.0.2"';
    const mapped = 'subsets[0].notReadyAddresses[1].ip: non-standard IP address "::ffff:10.0.0.3" will be considered invalid in a future Kubernetes release: use "10.0.0.3"';
    const upper = 'subsets[1].addresses[0].ip: IPv6 address "2001:DB8:0:0::1" should be in RFC 5952 canonical format ("2001:db8::1")';
    const subsets = [
      { addresses: [{ ip: '010.000.000.002' }, { ip: '10.0.0.9' }], notReadyAddresses: [{ ip: '2001:db8::2' }, { ip: '::ffff:10.0.0.3' }] },
      { addresses: [{ ip: '2001:DB8:0:0::1' }] },
    ];
    const created = await t.request('POST', EP, { body: endpoints('warned', subsets) });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(warningsOf(created), [leading, mapped, upper].map((w) => `299 - ${JSON.stringify(w)}`));
    // Stored as sent: a warning, not a change.
    assert.equal(created.body.subsets[0].addresses[0].ip, '010.000.000.002');
    const put = await t.request('PUT', `${EP}/warned`, { body: { ...endpoints('warned', [{ addresses: [{ ip: '010.0.0.4' }] }]), metadata: { name: 'warned', resourceVersion: created.body.metadata.resourceVersion } } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(warningsOf(put), [`299 - ${JSON.stringify('subsets[0].addresses[0].ip: non-standard IP address "010.0.0.4" will be considered invalid in a future Kubernetes release: use "10.0.0.4"')}`]);
    const patched = await t.request('PATCH', `${EP}/warned`, { body: { subsets: [{ addresses: [{ ip: 'fd00:0::1' }] }] }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(warningsOf(patched), [`299 - ${JSON.stringify('subsets[0].addresses[0].ip: IPv6 address "fd00:0::1" should be in RFC 5952 canonical format ("fd00::1")')}`]);
    // Standard forms, a dry run's refusal and the endpoints controller's own writes: no warning.
    const clean = await t.request('POST', EP, { body: endpoints('clean', [{ addresses: [{ ip: '10.0.0.1' }, { ip: '2001:db8::1' }] }]) });
    assert.equal(clean.status, 201, clean.text);
    assert.equal(clean.headers.get('warning'), null);
    const controller = { ...endpoints('by-controller', subsets), metadata: { name: 'by-controller', labels: { 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' } } };
    const byController = await t.request('POST', EP, { body: controller });
    assert.equal(byController.status, 201, byController.text);
    assert.equal(byController.headers.get('warning'), null);
    const invalid = await t.request('POST', EP, { body: endpoints('invalid', [{ addresses: [{ ip: '010.0.0.5' }, { ip: '169.254.169.254' }] }]) });
    assert.equal(invalid.status, 422, invalid.text);
    assert.equal(invalid.headers.get('warning'), null, 'no warnings for an object validation refused (kube warns only once it is valid)');
  });

  it('ipWarnings is utilvalidation.GetWarningsForIP', () => {
    assert.deepEqual(ipWarnings('ip', '10.0.0.1'), []);
    assert.deepEqual(ipWarnings('ip', 'not-an-ip'), []);
    assert.deepEqual(ipWarnings('ip', '::ffff:1.2.3.4'), ['ip: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"']);
    assert.deepEqual(ipWarnings('ip', '1.02.3.4'), ['ip: non-standard IP address "1.02.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"']);
    // More than four hex digits: Go's sloppy parse takes it, netip does not.
    assert.deepEqual(ipWarnings('ip', '2001:00db8::1'), ['ip: non-standard IP address "2001:00db8::1" will be considered invalid in a future Kubernetes release: use "2001:db8::1"']);
    assert.deepEqual(ipWarnings('ip', '2001:0db8::1'), ['ip: IPv6 address "2001:0db8::1" should be in RFC 5952 canonical format ("2001:db8::1")']);
    assert.deepEqual(ipWarnings('ip', '2001:db8:0:0:1:0:0:1'), ['ip: IPv6 address "2001:db8:0:0:1:0:0:1" should be in RFC 5952 canonical format ("2001:db8::1:0:0:1")']);
    assert.deepEqual(ipWarnings('ip', '::1'), []);
  });

  it('refuses bad IPs, names, unnamed ports among several, and subsets without addresses', async () => {
    const res = await t.request('POST', EP, {
      body: endpoints('bad', [
        { addresses: [{ ip: 'not-an-ip', hostname: 'Bad_Host', nodeName: 'no de' }], ports: [{ port: 80 }, { name: 'Bad_Name', port: 81, appProtocol: 'a/b/c' }] },
        { ports: [{ port: 82 }] },
      ]),
    });
    assert.equal(res.status, 422, res.text);
    const fields = (res.body.details.causes as Array<{ field: string; message: string }>).map((c) => `${c.field}: ${c.message}`);
    for (const expected of [
      'subsets[0].addresses[0].ip: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[0].addresses[0].ip: Invalid value: "not-an-ip": must be a valid IP address',
      'subsets[0].addresses[0].hostname: Invalid value: "Bad_Host": a lowercase RFC 1123 label',
      'subsets[0].addresses[0].nodeName: Invalid value: "no de": a lowercase RFC 1123 subdomain',
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label',
      'subsets[0].ports[1].appProtocol: Invalid value: "a/b/c": a qualified name',
      'subsets[1]: Required value: must specify `addresses` or `notReadyAddresses`',
    ]) {
      assert.ok(fields.some((f) => f.startsWith(expected)), `${expected}\n in ${fields.join('\n')}`);
    }
  });
});

describe('validation/ip: Go net.IP ranges', () => {
  it('parses as ParseIPSloppy and reads IPv4-mapped addresses as IPv4', () => {
    for (const bad of ['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1::2::3', 'fe80::1%eth0', '1.2.3.4::', ':::', '1:2:3:4:5:6:7:8:9', 'g::1']) {
      assert.equal(parseIPSloppy(bad), undefined, bad);
    }
    assert.deepEqual(parseIPSloppy('010.0.0.1'), [10, 0, 0, 1]);
    // Go 1.16's parser, which ParseIPSloppy keeps, reads any number of leading zeros.
    assert.deepEqual(parseIPSloppy('0010.00000.0255.1'), [10, 0, 255, 1]);
    assert.deepEqual(parseIPSloppy('00001::0000fe'), [0, 1, ...new Array<number>(13).fill(0), 0xfe]);
    assert.deepEqual(parseIPSloppy('::ffff:0010.1.1.1')?.slice(12), [10, 1, 1, 1]);
    for (const bad of ['0256.1.1.1', '1.2.3.-4', '1.2.3.+4', '10000::1', '1..2.3', '1.2.3.4 ', '0x1.2.3.4']) assert.equal(parseIPSloppy(bad), undefined, bad);
    assert.ok(isLoopback(parseIPSloppy('::ffff:127.0.0.1')!));
    assert.ok(isLoopback(parseIPSloppy('::1')!));
    assert.ok(!isLoopback(parseIPSloppy('::2')!));
    assert.ok(isUnspecified(parseIPSloppy('::ffff:0.0.0.0')!));
    assert.ok(isLinkLocalUnicast(parseIPSloppy('::ffff:a9fe:a9fe')!)); // 169.254.169.254
    assert.ok(isLinkLocalUnicast(parseIPSloppy('febf::1')!));
    assert.ok(!isLinkLocalUnicast(parseIPSloppy('fec0::1')!));
    assert.ok(isLinkLocalMulticast(parseIPSloppy('224.0.0.1')!));
    assert.ok(!isLinkLocalMulticast(parseIPSloppy('224.0.1.1')!));
    assert.ok(isLinkLocalMulticast(parseIPSloppy('ff12::1')!)); // Go: the scope nibble, any flags
  });
});
