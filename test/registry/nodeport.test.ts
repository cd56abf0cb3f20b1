/**
 * The node port allocator (runtime/registry/nodeport.ts) on one storage shared by several
 * allocators, as replicas share etcd: reservations created only if absent keep ports unique even
 * when every allocator starts at the same port; dynamic ports come from above kube's static band;
 * a failed create gives its ports back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NodePortAllocator, parsePortRange, staticPortBandSize } from '../../runtime/registry/nodeport.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';

const allocatorOn = (storage: MemoryStorage, random: () => number = () => 0) =>
  new NodePortAllocator({ range: '30000-32767', storage, random, inUse: async () => new Set(), servicePorts: async () => [] });
const ref = (name: string) => ({ namespace: 'default', name });

describe('NodePortAllocator', () => {
  it("parses the range and keeps kube's static band: size/32, between 16 and 128", () => {
    assert.deepEqual(parsePortRange('30000-32767'), { base: 30000, size: 2768, text: '30000-32767' });
    assert.throws(() => parsePortRange('32767-30000'), /invalid --service-node-port-range/);
    assert.deepEqual([8, 16, 2768, 10000].map(staticPortBandSize), [0, 16, 86, 128]);
  });

  it('never hands out one port twice across allocators sharing storage, even when all start at the same port', async () => {
    const storage = new MemoryStorage();
    const replicas = [allocatorOn(storage), allocatorOn(storage), allocatorOn(storage)];
    const ports = await Promise.all(
      Array.from({ length: 45 }, async (_, i) => {
        const spec = [{ nodePort: undefined as number | undefined }];
        await replicas[i % 3]!.allocate(ref(`s${i}`), spec);
        return spec[0]!.nodePort!;
      }),
    );
    assert.equal(new Set(ports).size, 45);
    assert.ok(ports.every((p) => p >= 30086), 'above the static band');
  });

  it('gives the ports of a failed create back, and refuses a port another Service holds', async () => {
    const storage = new MemoryStorage();
    const a = allocatorOn(storage);
    const done = await a.allocate(ref('one'), [{ nodePort: 30001 }]);
    await assert.rejects(a.allocate(ref('two'), [{ nodePort: 30001 }]), /provided port is already allocated/);
    await done(false);
    await a.allocate(ref('two'), [{ nodePort: 30001 }]);
    // Two ports of one Service may not be the same either; the first is given back when the second fails.
    await assert.rejects(a.allocate(ref('three'), [{ nodePort: 30002 }, { nodePort: 30002 }]), /provided port is already allocated/);
    await a.allocate(ref('four'), [{ nodePort: 30002 }]);
  });
});
