/**
 * Conversions between widgets.example.com/v1beta1 and v1 (the storage version) that kgen cannot
 * generate: v1 renamed `spec.size` to `spec.replicas`. kgen copies every field that corresponds by
 * name and type, then calls these with the half-built `out`.
 */
import type { WidgetSpec as V1WidgetSpec } from '../v1/widget.js';
import type { WidgetSpec } from './widget.js';

export function Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec(src: WidgetSpec, out: V1WidgetSpec): void {
  if (src.size !== undefined) out.replicas = src.size;
}

export function Convert_v1_WidgetSpec_To_v1beta1_WidgetSpec(src: V1WidgetSpec, out: WidgetSpec): void {
  if (src.replicas !== undefined) out.size = src.replicas;
}
