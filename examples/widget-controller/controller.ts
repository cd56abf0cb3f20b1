/**
 * The example Widget controller, built from kgen's generated typed client and its controller
 * toolkit. For every Widget in its namespace it
 *
 * - keeps a ConfigMap `<widget>-spinner` (data: color, replicas) that the Widget controls (an owner
 *   reference with controller: true), so deleting the Widget deletes it through garbage collection;
 * - sets status.conditions Ready=True (reason Reconciled) and status.observedGeneration;
 * - records Events (ConfigMapCreated, ConfigMapUpdated) about the Widget.
 *
 * Several replicas may run: only the one holding the Lease `widget-controller` reconciles.
 */
import { Clientset } from '../../generated/client/index.js';
import type { ConfigMap } from '../../generated/models/core/v1.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { isNotFound, type RestConfig } from '../../runtime/client/index.js';
import { Controller, EventRecorder, ownerKeys, setCondition, setControllerReference, type ConditionInput as Condition } from '@kgen/client';

export interface WidgetControllerOptions {
  config: RestConfig;
  namespace: string;
  /** This replica's identity in the Lease. */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  workers?: number;
  log?(line: string): void;
}

const configMapName = (widget: string) => `${widget}-spinner`;

export function widgetController(opts: WidgetControllerOptions): Controller {
  const log = opts.log ?? ((line: string) => console.log(line));
  const client = new Clientset(opts.config);
  const informers = client.informers();
  const widgets = informers.widgetsExampleComV1.widgets(opts.namespace);
  const configMaps = informers.coreV1.configmaps(opts.namespace);
  const recorder = new EventRecorder({ client: client.coreV1.events(), component: 'widget-controller', instance: opts.identity, onError: (err) => log(`event: ${(err as Error).message}`) });

  /** The ConfigMap the Widget should have. */
  function desired(widget: Widget): ConfigMap {
    const cm: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: configMapName(widget.metadata.name!), namespace: opts.namespace, labels: { 'widgets.example.com/widget': widget.metadata.name! } },
      data: { color: widget.spec.color ?? 'red', replicas: String(widget.spec.replicas ?? 1) },
    };
    setControllerReference({ ...widget, apiVersion: 'widgets.example.com/v1', kind: 'Widget' }, cm);
    return cm;
  }

  async function ensureConfigMap(widget: Widget): Promise<void> {
    const want = desired(widget);
    const have = configMaps.lister().namespace(opts.namespace).get(want.metadata.name!);
    const ref = { ...widget, apiVersion: 'widgets.example.com/v1', kind: 'Widget' };
    if (!have) {
      await client.coreV1.configmaps(opts.namespace).create(want);
      recorder.event(ref, 'Normal', 'ConfigMapCreated', `created ConfigMap ${want.metadata.name}`);
    } else if (JSON.stringify(have.data) !== JSON.stringify(want.data)) {
      await client.coreV1.configmaps(opts.namespace).update({ ...have, data: want.data });
      recorder.event(ref, 'Normal', 'ConfigMapUpdated', `updated ConfigMap ${want.metadata.name}`);
    }
  }

  async function updateStatus(widget: Widget): Promise<void> {
    const generation = widget.metadata.generation ?? 0;
    const { conditions, changed } = setCondition((widget.status?.conditions ?? []) as Condition[], {
      type: 'Ready',
      status: 'True',
      reason: 'Reconciled',
      message: `ConfigMap ${configMapName(widget.metadata.name!)} is up to date`,
      observedGeneration: generation,
    });
    if (!changed && widget.status?.observedGeneration === generation) return;
    await client.widgetsExampleComV1.widgets(opts.namespace).updateStatus({ ...widget, status: { ...widget.status, observedGeneration: generation, conditions: conditions as never } });
  }

  const controller: Controller = new Controller({
    name: 'widget-controller',
    informer: widgets.informer(),
    watches: [{ informer: configMaps.informer(), keys: ownerKeys('Widget', 'widgets.example.com') }],
    workers: opts.workers ?? 2,
    reconcile: async (key) => {
      const name = key.slice(key.indexOf('/') + 1);
      const widget = widgets.lister().namespace(opts.namespace).get(name);
      // Gone: its ConfigMap goes with it through garbage collection.
      if (!widget || widget.metadata.deletionTimestamp) return;
      try {
        await ensureConfigMap(widget);
        await updateStatus(widget);
      } catch (err) {
        // A stale cache: the next informer event brings the key back.
        if (isNotFound(err)) return;
        throw err;
      }
      log(`reconciled ${key} generation ${widget.metadata.generation}`);
    },
    leaderElection: {
      lock: { client: client.coordinationK8sIoV1.leases(opts.namespace), name: 'widget-controller', identity: opts.identity },
      leaseDurationMs: opts.leaseDurationMs,
      renewDeadlineMs: opts.renewDeadlineMs,
      retryPeriodMs: opts.retryPeriodMs,
      releaseOnCancel: true,
      callbacks: {
        // How the term began (when the observed lease expired, when the winning attempt started and ended, local ms).
        onStartedLeading: () => log(`leading as ${opts.identity} ${JSON.stringify(controller.leaderElector?.lastAcquisition() ?? {})}`),
        onStoppedLeading: () => log(`stopped leading as ${opts.identity}`),
        onNewLeader: (id) => log(`leader is ${id}`),
      },
    },
    onError: (err, key) => log(`error ${key ?? ''}: ${(err as Error).message}`),
  });
  return controller;
}
