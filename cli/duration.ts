/**
 * Duration flags (`--compaction-interval 5m`): Go's time.ParseDuration (runtime/api/duration.ts),
 * as kube's pflag durations, refusing a negative value, which none of kgen's flags has a meaning for.
 */
import { InvalidArgumentError } from 'commander';
import { parseGoDuration } from '../runtime/api/duration.js';

/** A duration flag's value in milliseconds; anything Go would refuse, or a negative, is a usage error. */
export function durationOption(value: string): number {
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
  if (ms < 0) throw new InvalidArgumentError(`invalid duration ${JSON.stringify(value)}: must not be negative`);
  return ms;
}
