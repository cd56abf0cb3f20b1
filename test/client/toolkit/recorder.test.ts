/** The event recorder: non-blocking, repeats as a series count, similar events aggregated, spam filter. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRecorder, FakeClock } from '../../../packages/client/src/toolkit/index.js';
import { FakeEvents } from './fakes.js';

const widget = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'ns', uid: 'u1' } };

describe('EventRecorder', () => {
  it('writes an Event about the object without blocking the caller', async () => {
    const events = new FakeEvents();
    const recorder = new EventRecorder({ client: events, component: 'widget-controller', clock: new FakeClock() });
    recorder.event(widget, 'Normal', 'Synced', 'configmap made');
    assert.equal(events.created.length, 0, 'nothing written synchronously');
    await recorder.flush();
    const [e] = events.created;
    assert.deepEqual(e!.involvedObject, { apiVersion: 'widgets.example.com/v1', kind: 'Widget', namespace: 'ns', name: 'w1', uid: 'u1', resourceVersion: undefined });
    assert.deepEqual([e!.type, e!.reason, e!.message, e!.count, e!.source], ['Normal', 'Synced', 'configmap made', 1, { component: 'widget-controller' }]);
    assert.equal(e!.metadata?.namespace, 'ns');
    assert.match(e!.metadata!.name!, /^w1\.[0-9a-f]+$/);
  });

  it('aggregates repeats into one Event with a growing count', async () => {
    const clock = new FakeClock();
    const events = new FakeEvents();
    const recorder = new EventRecorder({ client: events, component: 'c', clock });
    recorder.event(widget, 'Warning', 'Failed', 'no room');
    await clock.step(5000);
    recorder.event(widget, 'Warning', 'Failed', 'no room');
    recorder.event(widget, 'Warning', 'Failed', 'no room');
    await recorder.flush();
    assert.equal(events.created.length, 1);
    assert.equal(events.created[0]!.count, 3);
    assert.deepEqual(events.patches.map((p) => p.patch.count), [2, 3]);
    assert.notEqual(events.created[0]!.lastTimestamp, events.created[0]!.firstTimestamp);
  });

  it('combines ten different messages of one reason into an aggregate event', async () => {
    const events = new FakeEvents();
    const recorder = new EventRecorder({ client: events, component: 'c', clock: new FakeClock() });
    for (let i = 0; i < 12; i++) recorder.event(widget, 'Normal', 'Scaled', `to ${i}`);
    await recorder.flush();
    assert.equal(events.created.length, 10);
    // The 10th and later share one aggregate Event, patched with the latest message and count.
    assert.equal(events.created.filter((e) => e.message?.startsWith('(combined')).length, 1);
    assert.deepEqual(events.patches.map((p) => p.patch.message), ['(combined from similar events): to 10', '(combined from similar events): to 11']);
    assert.equal(events.created[9]!.count, 3);
  });

  it('rate limits per object (burst, then one per refill period) and drops the excess', async () => {
    const clock = new FakeClock();
    const events = new FakeEvents();
    const recorder = new EventRecorder({ client: events, component: 'c', clock, burst: 3, refillPeriodMs: 1000 });
    for (let i = 0; i < 5; i++) recorder.event(widget, 'Normal', 'R', 'same');
    await recorder.flush();
    assert.equal(events.created[0]!.count, 3);
    assert.equal(recorder.dropped, 2);
    await clock.step(1000);
    recorder.event(widget, 'Normal', 'R', 'same');
    await recorder.flush();
    assert.equal(events.created[0]!.count, 4);
  });

  it('never blocks or throws: a full buffer drops the oldest, failed writes are retried', async () => {
    const clock = new FakeClock();
    const events = new FakeEvents();
    events.failNext = 1;
    const recorder = new EventRecorder({ client: events, component: 'c', clock, bufferSize: 2 });
    recorder.event(widget, 'Normal', 'A', 'a');
    recorder.event({ ...widget, metadata: { ...widget.metadata, name: 'w2' } }, 'Normal', 'B', 'b');
    recorder.event({ ...widget, metadata: { ...widget.metadata, name: 'w3' } }, 'Normal', 'C', 'c');
    recorder.event({ ...widget, metadata: { ...widget.metadata, name: 'w4' } }, 'Normal', 'D', 'd');
    assert.equal(recorder.dropped, 2, 'A and B dropped: the buffer holds 2');
    await clock.step(1000);
    await recorder.flush();
    assert.deepEqual(events.created.map((e) => e.reason), ['C', 'D'], 'C failed once and was retried');
  });
});
