/**
 * Content negotiation (k8s.io/apiserver/pkg/endpoints/handlers/negotiation): which media type a
 * response is written in, and which transformation (Table, PartialObjectMetadata[List]) an
 * Accept header asks for with its `as`/`g`/`v` parameters.
 */
import { statusError } from '../api/status.js';
import { PROTOBUF_CONTENT_TYPE } from './protobuf.js';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/** protobuf: application/vnd.kubernetes.protobuf, only where the context allows it (built-in kinds). */
export type Format = 'json' | 'yaml' | 'protobuf';

export type OutputTarget =
  | { as: 'Object'; format: Format }
  | { as: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList'; format: Format; version: 'v1' | 'v1beta1' };

/** What the endpoint can produce: transformations only for reads; lists vs single objects. */
export interface NegotiationContext {
  transform: boolean;
  list: boolean;
  /** A watch: single-object transformations apply to each event. */
  watch?: boolean;
  /** The kind can be answered in protobuf (built-in kinds; never CRDs, as kube). */
  protobuf?: boolean;
}

export const JSON_CONTENT_TYPE = 'application/json';
export const YAML_CONTENT_TYPE = 'application/yaml';

/** Parses an Accept (or Content-Type) header into media ranges, keeping their order. */
export function parseMediaRanges(header: string | undefined): MediaRange[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [full = '', ...paramParts] = part.split(';');
      const [type = '', subtype = ''] = full.trim().toLowerCase().split('/');
      const params: Record<string, string> = {};
      for (const p of paramParts) {
        const eq = p.indexOf('=');
        if (eq < 0) continue;
        params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      }
      const q = params.q !== undefined ? Number(params.q) : 1;
      return { type, subtype, params, q: Number.isNaN(q) ? 0 : q };
    });
}

/** The media type (without parameters) of a Content-Type header, lower-cased. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function formatOf(range: MediaRange, ctx: NegotiationContext): Format | undefined {
  const { type, subtype } = range;
  if (type === '*' && subtype === '*') return 'json';
  if (type !== 'application') return undefined;
  if (subtype === 'json' || subtype === '*') return 'json';
  if (subtype === 'yaml') return 'yaml';
  if (subtype === 'vnd.kubernetes.protobuf' && ctx.protobuf) return 'protobuf';
  return undefined;
}

function targetOf(range: MediaRange, ctx: NegotiationContext): OutputTarget | undefined {
  const format = formatOf(range, ctx);
  if (!format) return undefined;
  const as = range.params.as;
  if (!as) return { as: 'Object', format };
  // Tables and partial metadata are served in JSON and YAML only.
  if (format === 'protobuf') return undefined;
  const version = range.params.v;
  if (!ctx.transform || range.params.g !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) return undefined;
  if (as === 'Table') return { as, format, version };
  if (as === 'PartialObjectMetadata' && (!ctx.list || ctx.watch)) return { as, format, version };
  if (as === 'PartialObjectMetadataList' && ctx.list && !ctx.watch) return { as, format, version };
  return undefined;
}

/** The object as it is, in JSON: what most requests ask for, one shared (frozen) answer. */
const OBJECT_AS_JSON: OutputTarget = Object.freeze({ as: 'Object', format: 'json' });

/**
 * The first acceptable target, in the client's preference order (q, then position). No Accept
 * means JSON; nothing acceptable is 406 NotAcceptable.
 */
export function negotiateOutput(accept: string | undefined, ctx: NegotiationContext): OutputTarget {
  // The common cases, without parsing: no Accept, or plain JSON (kubectl get -o json, clients).
  if (accept === undefined || accept === '' || accept === JSON_CONTENT_TYPE || accept === '*/*') return OBJECT_AS_JSON;
  const ranges = parseMediaRanges(accept);
  if (ranges.length === 0) return OBJECT_AS_JSON;
  const ordered = ranges.map((r, i) => ({ r, i })).sort((a, b) => b.r.q - a.r.q || a.i - b.i);
  for (const { r } of ordered) {
    if (r.q <= 0) continue;
    const target = targetOf(r, ctx);
    if (target) return target;
  }
  throw statusError(
    'NotAcceptable',
    'only the following media types are accepted: application/json, application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io',
  );
}

export function contentTypeOf(format: Format): string {
  return format === 'yaml' ? YAML_CONTENT_TYPE : format === 'protobuf' ? PROTOBUF_CONTENT_TYPE : JSON_CONTENT_TYPE;
}
