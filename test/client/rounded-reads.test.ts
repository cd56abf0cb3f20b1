/**
 * The client against a cluster that holds an int64 beyond 2^53 (kube keeps them exactly): what
 * was read rounded is not written back (get, list, watch, then update, create, apply, or a copy),
 * a value the caller set is written, and objects without such an integer are untouched.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ResourceClient, RestClient, type KubeObject } from '@kgen/client';
import { startStub, type Stub } from './stub-server.js';

interface Widget extends KubeObject {
  spec?: { count?: number; size?: number };
}

const widgets = { group: 'widgets.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
const object = (name: string, count: string) =>
  `{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"${name}","namespace":"ns","uid":"uid-${name}","resourceVersion":"7"},"spec":{"count":${count},"size":1}}`;

describe('objects read with an integer a number cannot hold', () => {
  let stub: Stub;
  let rest: RestClient;
  let c: ResourceClient<Widget>;
  const writes: string[] = [];
  before(async () => {
    stub = await startStub((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'GET') {
        writes.push(req.body);
        return void res.end(req.body);
      }
      if (req.query.get('watch') === 'true') {
        res.write(`{"type":"ADDED","object":${object('watched', '9007199254740997')}}\n`);
        return void res.end();
      }
      if (req.path.endsWith('/widgets')) return void res.end(`{"kind":"WidgetList","apiVersion":"widgets.example.com/v1","metadata":{},"items":[${object('plain', '5')},${object('listed', '-9223372036854775807')}]}`);
      const name = req.path.split('/').at(-1)!;
      res.end(object(name, name === 'plain' ? '5' : '9007199254740993'));
    });
    rest = new RestClient({ server: stub.url, qps: 0 });
    c = new ResourceClient<Widget>(rest, widgets, 'ns');
  });
  after(async () => {
    rest.close();
    await stub.close();
  });

  it('a GET, changed elsewhere and updated, is refused naming both numbers; nothing is sent', async () => {
    const w = await c.get('got');
    assert.equal(w.spec!.count, 9007199254740992, 'JSON.parse rounds it');
    w.spec!.size = 2;
    const before = writes.length;
    await assert.rejects(c.update(w), {
      message: 'ns/got was read with 9007199254740993 at spec.count, which a JavaScript number cannot hold (it reads 9007199254740992); writing it back would store 9007199254740992. Set that field (or remove it) before writing the object.',
    });
    await assert.rejects(c.update(structuredClone(w)), /read with 9007199254740993/, 'a copy keeps the uid');
    await assert.rejects(async () => c.apply(w, { fieldManager: 'm' }), /read with 9007199254740993/);
    await assert.rejects(c.mergePatch('got', w), /read with 9007199254740993/, 'the whole object as a patch');
    assert.equal(writes.length, before, 'nothing reached the server');
    // The caller sets the field: written as given.
    w.spec!.count = 3;
    assert.equal((await c.update(w)).spec!.count, 3);
  });

  it('a list item and a watch event are noted too; other items write as usual', async () => {
    const list = await c.list();
    const [plain, listed] = list.items;
    assert.equal((await c.update(plain!)).metadata.name, 'plain');
    await assert.rejects(c.update(listed!), /ns\/listed was read with -9223372036854775807 at spec.count/);
    for await (const event of c.watch({ resourceVersion: '1' })) {
      await assert.rejects(c.update(event.object), /ns\/watched was read with 9007199254740997 at spec.count/);
      break;
    }
  });
});
