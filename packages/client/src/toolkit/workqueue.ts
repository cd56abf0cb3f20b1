/**
 * The toolkit's work queue: client-go's util/workqueue semantics. The one copy lives in
 * runtime/api/workqueue.ts, shared with the server's own controllers (runtime/controllers/queue.ts);
 * the toolkit's ToolkitClock (a FakeClock in tests) fits its clock option.
 */
export { WorkQueue, type QueueItem, type WorkQueueMetrics, type WorkQueueOptions } from '../../../../runtime/api/workqueue.js';
