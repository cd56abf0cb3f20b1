import type { int32, Time } from 'kgen';

/**
 * Runbook is a list of steps an operator follows for an incident.
 * @kgen:resource shortNames=rb
 * @kgen:subresource status
 * @kgen:printcolumn name=Steps type=integer jsonPath=.status.stepCount
 * @kgen:printcolumn name=Last-Run type=date jsonPath=.status.lastRun
 */
export interface Runbook {
  spec: RunbookSpec;
  status?: RunbookStatus;
}

export interface RunbookSpec {
  /** Human title. */
  title: string;
  /** The steps, in order. */
  steps: Step[];
  /** Runbooks tagged by team and severity. */
  tags?: Record<string, string[]>;
}

export interface Step {
  /** What to do. */
  action: string;
  /**
   * Seconds to wait before the next step.
   * @minimum 0
   */
  waitSeconds?: int32;
  /**
   * Arbitrary data passed to automation.
   * @kgen:preserveUnknownFields
   */
  inputs?: unknown;
}

export interface RunbookStatus {
  stepCount?: int32;
  lastRun?: Time;
}
