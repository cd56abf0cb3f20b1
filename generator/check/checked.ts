/**
 * What the check stage hands the emitters, computed once by checkModel so that no emitter
 * recomputes it:
 * - `model`: every version (models and conversions are emitted from all of it);
 * - `served`: the model as served, without @kgen:unservedversion kinds and the versions and groups
 *   they leave empty (discovery, OpenAPI, routes, clients are emitted from it);
 * - `conversions`: the conversion plan of every kind declared in several versions, the one the
 *   checker reported KG040/KG041 from and the conversion emitter prints.
 * Emitters only read it.
 */
import type { ApiModel } from '../model.js';
import type { KindConversionPlan } from './conversion.js';

export interface CheckedModel {
  readonly model: ApiModel;
  readonly served: ApiModel;
  readonly conversions: readonly KindConversionPlan[];
}
