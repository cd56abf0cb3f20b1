import type { Condition, int32, int64, IntOrString, LabelSelector, Quantity, Time } from 'kgen';

/**
 * Widget is a thing that spins. A Widget runs a number of spinner replicas with a colour and
 * resource limits.
 * @kgen:resource scope=Namespaced shortNames=wd categories=all
 * @kgen:subresource status
 * @kgen:subresource scale specReplicasPath=.spec.replicas statusReplicasPath=.status.replicas labelSelectorPath=.status.selector
 * @kgen:subresource custom name=logs verbs=get
 * @kgen:subresource custom name=console verbs=connect
 * @kgen:printcolumn name=Replicas type=integer jsonPath=.spec.replicas description="Desired number of spinners"
 * @kgen:printcolumn name=Color type=string jsonPath=.spec.color
 * @kgen:printcolumn name=Phase type=string jsonPath=.status.phase priority=1
 * @kgen:selectableField jsonPath=.spec.color
 * @kgen:storageversion
 */
export interface Widget {
  /** Spec is the desired state of the Widget. */
  spec: WidgetSpec;
  /** Status is the observed state of the Widget. */
  status?: WidgetStatus;
}

/** The colour a widget is painted. */
export type Color = 'red' | 'green' | 'blue';

/** WidgetSpec is the desired state of a Widget. */
export interface WidgetSpec {
  /**
   * Number of spinners to run.
   * @minimum 0
   * @maximum 100
   * @default 1
   */
  replicas?: int32;
  /**
   * Colour of the widget.
   * @default "red"
   */
  color?: Color;
  /**
   * Revolutions per minute of each spinner.
   * @minimum 1
   * @maximum 100000
   */
  rpm?: int64;
  /** Resource limits per spinner, such as cpu: 500m or memory: 128Mi. */
  limits?: Record<string, Quantity>;
  /** Port the widget listens on, by number or name. */
  port?: IntOrString;
  /**
   * Parts the widget is made of.
   * @kgen:listType map
   * @kgen:listMapKey name
   * @maxItems 32
   */
  parts?: Part[];
  /** Selector for the pods that belong to this widget. */
  selector?: LabelSelector;
  /** Free-form labels copied onto each spinner. */
  spinnerLabels?: Record<string, string>;
  /**
   * Maintenance windows as lists of weekday names per week, e.g. [["mon", "tue"], ["sat"]].
   * @maxItems 4
   */
  schedule?: string[][];
  /** Time after which the widget stops spinning; unset means never. */
  stopAfter?: Time | null;
}

/**
 * Part is one component of a widget.
 * @kgen:validation rule="!has(self.material) || self.material != 'wood' || self.count <= 10" message="a wooden part has a count of at most 10" fieldPath=".count"
 */
export interface Part {
  /**
   * Name of the part, unique in the widget.
   * @minLength 1
   * @maxLength 63
   * @pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
   */
  name: string;
  /**
   * How many of this part.
   * @minimum 1
   */
  count: int32;
  /** Optional material. */
  material?: 'steel' | 'plastic' | 'wood';
}

/** WidgetStatus is the observed state of a Widget. */
export interface WidgetStatus {
  /** Number of spinners currently running. */
  replicas?: int32;
  /** Label selector of the spinners, as a string, for the scale subresource. */
  selector?: string;
  /** Lifecycle phase. */
  phase?: 'Pending' | 'Spinning' | 'Stopped';
  /** The generation most recently observed by the controller. */
  observedGeneration?: int64;
  /** When the widget last started spinning. */
  lastSpinTime?: Time;
  /**
   * Conditions of the widget, such as Ready.
   * @kgen:listType map
   * @kgen:listMapKey type
   */
  conditions?: Condition[];
}
