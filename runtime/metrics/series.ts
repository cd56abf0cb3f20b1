/**
 * Metric families recorded on hot paths without prom-client's per-call label hashing: a caller
 * keeps (or looks up by one string key) a series object and bumps plain numbers in it. At scrape
 * time each family answers prom-client's metric contract (`get()` returning name, help, type and
 * values), so prom-client's Registry writes the exposition (text format, escaping) and its
 * default collectors add the process metrics. Label names and histogram buckets are kube's.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram';

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * How `kgen serve --workers N` adds up one family over its worker processes (prom-client's
 * AggregatorRegistry): counters, histograms and per-process gauges sum; a gauge every worker reads
 * from the shared storage (object counts) takes the largest, so N workers report it once.
 */
export type Aggregator = 'sum' | 'max';

/** prom-client's metric contract for Registry.registerMetric. */
export interface CollectableMetric {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly aggregator: Aggregator;
  get(): Promise<{ name: string; help: string; type: MetricType; aggregator: Aggregator; values: MetricValue[] }>;
}

function labelObject(names: readonly string[], values: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) labels[names[i]!] = values[i] ?? '';
  return labels;
}

/** A counter or gauge series: `value` is bumped directly by whoever holds it. */
export class ScalarSeries {
  value = 0;
  constructor(readonly labels: Record<string, string>) {}
  inc(n = 1): void {
    this.value += n;
  }
  dec(n = 1): void {
    this.value -= n;
  }
}

abstract class Family<S> implements CollectableMetric {
  aggregator: Aggregator = 'sum';
  protected readonly series = new Map<string, S>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  abstract readonly type: MetricType;
  protected abstract make(labels: Record<string, string>): S;

  /** The series with these label values (in labelNames order), made on first use. */
  with(...values: string[]): S {
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = this.make(labelObject(this.labelNames, values))));
    return s;
  }

  /** Like with(), for a caller that built the key itself (one string per request, no array). */
  withKey(key: string, values: () => string[]): S {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = this.make(labelObject(this.labelNames, values()))));
    return s;
  }

  reset(): void {
    this.series.clear();
  }

  abstract values(): MetricValue[];

  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.values() };
  }
}

export class CounterFamily extends Family<ScalarSeries> {
  readonly type: MetricType = 'counter';
  protected make(labels: Record<string, string>): ScalarSeries {
    return new ScalarSeries(labels);
  }
  values(): MetricValue[] {
    return [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value }));
  }
}

export class GaugeFamily extends CounterFamily {
  override readonly type: MetricType = 'gauge';
  /** Gauges whose value is read at scrape time (object counts, in-flight counters). */
  collect?: () => void | Promise<void>;
  override async get() {
    await this.collect?.();
    return super.get();
  }
}

export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Record<string, string>,
    private readonly buckets: readonly number[],
  ) {
    this.counts = new Float64Array(buckets.length);
  }

  /** Counts v in the first bucket whose upper bound is >= v (cumulated at scrape). */
  observe(v: number): void {
    this.sum += v;
    this.count++;
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) {
      if (v <= buckets[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }
}

export class HistogramFamily extends Family<HistogramSeries> {
  readonly type: MetricType = 'histogram';
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
  }
  protected make(labels: Record<string, string>): HistogramSeries {
    return new HistogramSeries(labels, this.buckets);
  }
  values(): MetricValue[] {
    const out: MetricValue[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        cumulative += s.counts[i]!;
        out.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: this.buckets[i]! }, value: cumulative });
      }
      out.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      out.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      out.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return out;
  }
}

/** prometheus.ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0, v = start; i < count; i++, v *= factor) out.push(v);
  return out;
}
