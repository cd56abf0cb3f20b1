/**
 * Scraping helpers: parse /metrics text with a real Prometheus text-format parser
 * (parse-prometheus-text-format) and look samples up by name and labels.
 *
 * That parser folds a histogram's series into one object keyed by `le` and drops their other
 * labels; so the text is parsed twice: as served (types, help, format), and with histogram TYPE
 * lines removed, where `_bucket`, `_sum` and `_count` samples keep their labels.
 */
import { createRequire } from 'node:module';

const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => ParsedFamily[];

export interface ParsedFamily {
  name: string;
  help: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}

export interface Scrape {
  families: Map<string, ParsedFamily>;
  /** Untyped samples (histograms split into _bucket/_sum/_count) by sample name. */
  samples: Map<string, { value: number; labels: Record<string, string> }[]>;
}

export function parseScrape(text: string): Scrape {
  const families = new Map(parse(text).map((f) => [f.name, f]));
  const histograms = new Set([...families.values()].filter((f) => f.type === 'HISTOGRAM').map((f) => f.name));
  const untyped = text
    .split('\n')
    .filter((line) => {
      const m = /^# (TYPE|HELP) (\S+)/.exec(line);
      return !(m && histograms.has(m[2]!));
    })
    .join('\n');
  const samples = new Map<string, { value: number; labels: Record<string, string> }[]>();
  for (const f of parse(untyped)) {
    // Untyped, a histogram's sample names alternate (_bucket, _sum, _count, _bucket, …): each run is a family.
    const list = samples.get(f.name) ?? [];
    for (const m of f.metrics) list.push({ value: Number(m.value), labels: m.labels ?? {} });
    samples.set(f.name, list);
  }
  return { families, samples };
}

/** Sum of the samples named `name` whose labels include `match`. */
export function sampleSum(scrape: Scrape, name: string, match: Record<string, string> = {}): number {
  let sum = 0;
  for (const s of scrape.samples.get(name) ?? []) {
    if (Object.entries(match).every(([k, v]) => s.labels[k] === v)) sum += s.value;
  }
  return sum;
}
