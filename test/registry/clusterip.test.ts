/**
 * The cluster IP allocator (runtime/registry/clusterip.ts) on one storage shared by several
 * allocators, as replicas share etcd: reservations created only if absent keep addresses unique
 * even when every allocator starts its search at the same address; dynamic addresses come at
 * random from above kube's static band; reservations are released on failure and taken over
 * once stale.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClusterIPAllocator, staticBandSize } from '../../runtime/registry/clusterip.js';
import type { StatusError } from '../../runtime/api/status.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';

/** A deterministic [0, 1) sequence (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function allocatorOn(storage: MemoryStorage, range: string, random: () => number, services = new Map<string, string>(), staleAfterMs?: number) {
  return new ClusterIPAllocator({
    range,
    storage,
    random,
    staleAfterMs,
    inUse: async () => new Set(services.values()),
    serviceIP: async ({ namespace, name }) => services.get(`${namespace}/${name}`),
  });
}

const lastOctet = (ip: string) => Number(ip.split('.')[3]);
const ref = (name: string) => ({ namespace: 'default', name });

describe('ClusterIPAllocator', () => {
  it("keeps kube's static band: size/16, between 16 and 256", () => {
    assert.deepEqual([8, 16, 256, 4096, 65536, 1 << 20].map(staticBandSize), [0, 16, 16, 256, 256, 256]);
  });

  it('picks at random above the static band, deterministically for a seeded source', async () => {
    const pick = async (seed: number) => {
      const a = allocatorOn(new MemoryStorage(), '10.0.0.0/24', seeded(seed));
      const out: string[] = [];
      for (let i = 0; i < 5; i++) out.push((await a.allocate(ref(`s${i}`), undefined)).ip);
      return out;
    };
    const first = await pick(1);
    assert.deepEqual(await pick(1), first, 'same seed, same addresses');
    assert.notDeepEqual(await pick(2), first, 'another seed, other addresses');
    assert.ok(first.every((ip) => lastOctet(ip) >= 17 && lastOctet(ip) <= 254), first.join(' '));
    assert.notDeepEqual(first.map(lastOctet), [17, 18, 19, 20, 21], 'not the lowest free addresses');
  });

  it('uses the static band for dynamic addresses only once the upper part is full', async () => {
    const a = allocatorOn(new MemoryStorage(), '10.0.0.0/27', () => 0); // 32 addresses, band .2-.16 after .1
    const got: number[] = [];
    for (let i = 0; i < 29; i++) got.push(lastOctet((await a.allocate(ref(`s${i}`), undefined)).ip));
    assert.deepEqual(got.slice(0, 14), [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    assert.deepEqual(got.slice(14).sort((x, y) => x - y), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    await assert.rejects(a.allocate(ref('full'), undefined), (err: StatusError) => /failed to allocate IP: range is full/.test(err.message));
  });

  it('never hands out one address twice across allocators sharing storage, even when all start at the same address', async () => {
    const storage = new MemoryStorage();
    const replicas = [allocatorOn(storage, '10.0.0.0/24', () => 0), allocatorOn(storage, '10.0.0.0/24', () => 0), allocatorOn(storage, '10.0.0.0/24', () => 0)];
    const all = await Promise.all(Array.from({ length: 60 }, (_, i) => replicas[i % 3]!.allocate(ref(`c${i}`), undefined)));
    assert.equal(new Set(all.map((a) => a.ip)).size, 60);
  });

  it('refuses a requested address another holds, and gives an address back when the create fails', async () => {
    const storage = new MemoryStorage();
    const a = allocatorOn(storage, '10.0.0.0/24', seeded(3));
    const b = allocatorOn(storage, '10.0.0.0/24', seeded(4));
    const held = await a.allocate(ref('one'), '10.0.0.5');
    await assert.rejects(b.allocate(ref('two'), '10.0.0.5'), (err: StatusError) => /provided IP is already allocated/.test(err.message));
    await held.done(false);
    const again = await b.allocate(ref('two'), '10.0.0.5');
    assert.equal(again.ip, '10.0.0.5');
    await again.done(true);
    await a.release('10.0.0.5', ref('someone-else'));
    await assert.rejects(a.allocate(ref('three'), '10.0.0.5'), 'release by another Service does nothing');
    await a.release('10.0.0.5', ref('two'));
    assert.equal((await a.allocate(ref('three'), '10.0.0.5')).ip, '10.0.0.5');
  });

  it('compares addresses by value: 10.0.0.077 is 10.0.0.77 (reserved, held and released so)', async () => {
    const storage = new MemoryStorage();
    const services = new Map<string, string>([['default/old', '010.0.0.5']]);
    const a = allocatorOn(storage, '10.0.0.0/24', seeded(8), services);
    const zeros = await a.allocate(ref('zeros'), '10.0.0.077');
    assert.equal(zeros.ip, '10.0.0.077', 'the Service keeps the spelling it asked for');
    await zeros.done(true);
    services.set('default/zeros', '10.0.0.077');
    await assert.rejects(a.allocate(ref('plain'), '10.0.0.77'), (err: StatusError) => err.message.includes('failed to allocate IP 10.0.0.77: provided IP is already allocated'));
    await assert.rejects(a.allocate(ref('other'), '010.000.000.077'), /provided IP is already allocated/);
    // netutils.ParseIPSloppy: any number of digits, and an IPv4-mapped IPv6 address is IPv4.
    await assert.rejects(a.allocate(ref('digits'), '0010.0000.0000.0077'), /provided IP is already allocated/);
    await assert.rejects(a.allocate(ref('mapped'), '::ffff:10.0.0.77'), /provided IP is already allocated/);
    await assert.rejects(a.allocate(ref('legacy'), '10.0.0.5'), /provided IP is already allocated/, 'a stored Service spelled 010.0.0.5 holds 10.0.0.5');
    services.delete('default/zeros');
    await a.release('10.0.0.077', ref('zeros'));
    assert.equal((await a.allocate(ref('plain'), '10.0.0.77')).ip, '10.0.0.77');
  });

  it('a dry run reserves nothing', async () => {
    const storage = new MemoryStorage();
    const a = allocatorOn(storage, '10.0.0.0/24', seeded(5));
    const dry = await a.allocate(ref('dry'), undefined, true);
    assert.equal((await a.allocate(ref('real'), dry.ip)).ip, dry.ip);
  });

  it('takes over a reservation whose Service is gone once it is stale, never a fresh one', async () => {
    const storage = new MemoryStorage();
    const services = new Map<string, string>();
    const fresh = allocatorOn(storage, '10.0.0.0/24', seeded(6), services);
    await fresh.allocate(ref('crashed'), '10.0.0.9'); // never stored, never released: a leak
    await assert.rejects(fresh.allocate(ref('next'), '10.0.0.9'), 'a young reservation may be a create in flight');
    const repairing = allocatorOn(storage, '10.0.0.0/24', seeded(6), services, 0);
    await repairing.allocate(ref('holder'), '10.0.0.10');
    services.set('default/holder', '10.0.0.10');
    assert.equal((await repairing.allocate(ref('next'), '10.0.0.9')).ip, '10.0.0.9', 'stale and its Service is gone');
    await assert.rejects(repairing.allocate(ref('other'), '10.0.0.10'), 'its Service holds it');
  });
});
