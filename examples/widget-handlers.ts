/**
 * Handlers of the example Widget's custom subresources (apis/widgets.example.com/v1/widget.ts):
 *
 *   kgen serve ./generated --handlers ./examples/widget-handlers.ts
 *   kubectl get --raw '/apis/widgets.example.com/v1/namespaces/default/widgets/w1/logs?follow=true'
 *
 * `logs` streams a line per spinner turn (pods/log-like: `follow=true` keeps streaming until the
 * client goes away, `tailLines=N` limits the lines without it); `console` is a CONNECT
 * subresource (pods/exec-like) that answers each line written to stdin and reports resizes.
 */
import { statusError, streamBody } from 'kgen';
import { widgets } from '../generated/storage/widgets.example.com/v1/widgets.js';

interface LogOptions {
  follow: boolean;
  tailLines: number;
  /** Milliseconds between lines when following. */
  intervalMs: number;
}

function positiveInt(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw statusError('BadRequest', `${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

widgets.subresource<LogOptions>('logs', {
  parseOptions: (query) => ({
    follow: query.get('follow') === 'true',
    tailLines: positiveInt(query, 'tailLines', 3),
    intervalMs: positiveInt(query, 'intervalMs', 200),
  }),
  get({ object, options, signal }) {
    const name = object.metadata?.name ?? '';
    const replicas = object.spec.replicas ?? 1;
    async function* lines() {
      for (let turn = 0; options.follow || turn < options.tailLines; turn++) {
        if (signal.aborted) return;
        if (turn > 0 && options.follow) await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
        yield `widget ${name}: turn ${turn}, ${replicas} spinner(s), colour ${object.spec.color ?? 'none'}\n`;
      }
    }
    return streamBody(lines());
  },
});

widgets.subresource('console', {
  async connect({ object, user }, session) {
    session.stdout.write(`connected to widget ${object.metadata?.name} as ${user.username} (${session.protocol})\n`);
    session.onResize((size) => session.stderr.write(`resized to ${size.width}x${size.height}\n`));
    for await (const chunk of session.stdin) {
      const text = chunk.toString('utf8');
      if (text.trim() === 'exit') return;
      session.stdout.write(`> ${text.toUpperCase()}`);
    }
  },
});
