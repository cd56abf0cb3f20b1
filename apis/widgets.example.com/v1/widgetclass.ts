import type { Duration } from 'kgen';

/**
 * WidgetClass describes a class of widgets that cluster administrators offer.
 * @kgen:resource scope=Cluster shortNames=wdc
 * @kgen:printcolumn name=Default type=boolean jsonPath=.isDefault
 * @kgen:printcolumn name=Provisioner type=string jsonPath=.provisioner
 */
export interface WidgetClass {
  /**
   * Name of the controller that provisions widgets of this class. It cannot be changed.
   * @minLength 1
   * @kgen:immutable
   */
  provisioner: string;
  /** Whether widgets without a class get this one. */
  isDefault?: boolean;
  /** Provisioner-specific parameters. */
  parameters?: Record<string, string>;
  /**
   * How long a provisioned widget is kept after release, e.g. 1h30m.
   * @default "24h"
   */
  retention?: Duration;
}
