/**
 * kube's defaults of a pod template (pkg/apis/core/v1/defaults.go) that are not plain field
 * defaults: those (restartPolicy, dnsPolicy, schedulerName, terminationGracePeriodSeconds,
 * securityContext, a container's terminationMessagePath/Policy, a port's protocol, a probe's
 * timings, httpGet's path and scheme, volume sources' defaultMode, …) are `@default`s of the
 * built-in types (generator/builtin/core/v1/) and applied with the schema. What needs code:
 *
 * - SetDefaults_Container: imagePullPolicy from the image's tag (`Always` for `latest` or no tag
 *   and no digest, else `IfNotPresent`);
 * - SetDefaults_Volume: a volume without any source is an emptyDir.
 *
 * Written against decoded JSON: a field of the wrong type is left alone (the schema reports it).
 */
import type { KubeObject } from '../../api/meta.js';

type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** parsers.ParseImageName's tag: after the last `:` of the last path component; `latest` when neither tag nor digest. */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const last = name.slice(name.lastIndexOf('/') + 1);
  const colon = last.lastIndexOf(':');
  if (colon >= 0) return last.slice(colon + 1);
  return at >= 0 ? '' : 'latest';
}

/** SetDefaults_Container's imagePullPolicy. */
export function defaultPullPolicy(image: unknown): 'Always' | 'IfNotPresent' {
  return typeof image === 'string' && image !== '' && imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: Obj): void {
  if (c.imagePullPolicy === undefined || c.imagePullPolicy === '') c.imagePullPolicy = defaultPullPolicy(c.image);
}

/** SetDefaults_Volume: no source at all (only `name`) means emptyDir. */
function defaultVolume(v: Obj): void {
  if (Object.keys(v).every((k) => k === 'name' || v[k] === null || v[k] === undefined)) v.emptyDir = {};
}

/** The code defaults of a PodSpec, in place. */
export function defaultPodSpec(spec: unknown): void {
  if (!isObj(spec)) return;
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) objects(spec[list]).forEach(defaultContainer);
  objects(spec.volumes).forEach(defaultVolume);
}

/** The code defaults of the pod template at obj.spec.template (a Deployment's), in place. */
export function defaultTemplateOf(obj: KubeObject): void {
  const spec = obj.spec;
  if (isObj(spec) && isObj(spec.template)) defaultPodSpec(spec.template.spec);
}
