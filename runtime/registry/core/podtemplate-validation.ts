/**
 * kube's ValidatePodTemplateSpec and ValidatePodSpec (pkg/apis/core/validation), for the core
 * rules kgen enforces on a stored pod template, with kube's messages and paths. Containers are
 * checked in containers-validation.ts. Not checked (kube does): resource requests and limits,
 * security contexts, affinity terms, topology spread constraints, tolerations, DNS config, host
 * namespaces and ports across containers, per-source volume details beyond the names they need.
 */
import { isDNS1123Label, isDNS1123Subdomain } from '../../api/names.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../../validation/field.js';
import { validateAnnotations, validateLabels } from '../../validation/objectmeta.js';
import type { FieldError } from '../../validation/types.js';
import { nonNegative, validateContainers } from './containers-validation.js';
import { isObj, objects } from './podtemplate-defaults.js';
import { validatePersistentVolumeClaimSpec } from './persistentvolumeclaims.js';
import { quantityValue } from './quantity.js';

type Obj = Record<string, unknown>;

/** validateVolumeSource's order: the second source found is the one reported. */
export const VOLUME_SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'flocker', 'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap',
  'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO',
  'csi', 'ephemeral', 'image',
] as const;

const RESTART_POLICIES = ['Always', 'Never', 'OnFailure'];
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** A defaultMode or mode: 0 to 0777. */
function validateMode(mode: unknown, path: string): FieldError[] {
  return typeof mode === 'number' && (mode < 0 || mode > 0o777) ? [invalid(path, mode, 'must be a number between 0 and 0777 (octal), both inclusive')] : [];
}

/** The per-source checks kgen makes: the names a source needs, and modes. */
function validateSource(kind: string, src: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const need = (f: string) => {
    if (typeof src[f] !== 'string' || src[f] === '') errs.push(required(`${path}.${f}`));
  };
  switch (kind) {
    case 'secret':
      need('secretName');
      errs.push(...validateMode(src.defaultMode, `${path}.defaultMode`));
      break;
    case 'configMap':
      need('name');
      errs.push(...validateMode(src.defaultMode, `${path}.defaultMode`));
      break;
    case 'persistentVolumeClaim':
      need('claimName');
      break;
    case 'hostPath':
      need('path');
      if (typeof src.type === 'string' && !HOST_PATH_TYPES.includes(src.type)) errs.push(notSupported(`${path}.type`, src.type, HOST_PATH_TYPES));
      break;
    case 'csi':
      need('driver');
      break;
    case 'nfs':
      need('server');
      need('path');
      break;
    case 'emptyDir': {
      const size = quantityValue(src.sizeLimit);
      if (size !== undefined && size < 0) errs.push(forbidden(`${path}.sizeLimit`, 'SizeLimit field must be a valid resource quantity'));
      break;
    }
    case 'ephemeral':
      // validateEphemeralVolumeSource: the template's spec is a claim's (ValidatePersistentVolumeClaimSpec).
      if (!isObj(src.volumeClaimTemplate)) errs.push(required(`${path}.volumeClaimTemplate`));
      else {
        const claimSpec = isObj(src.volumeClaimTemplate.spec) ? src.volumeClaimTemplate.spec : {};
        errs.push(...validatePersistentVolumeClaimSpec(claimSpec, `${path}.volumeClaimTemplate.spec`));
      }
      break;
    case 'downwardAPI':
    case 'projected':
      errs.push(...validateMode(src.defaultMode, `${path}.defaultMode`));
      break;
  }
  objects(src.items).forEach((item, i) => {
    const p = `${path}.items[${i}]`;
    if (kind !== 'downwardAPI' && (typeof item.key !== 'string' || item.key === '')) errs.push(required(`${p}.key`));
    if (typeof item.path !== 'string' || item.path === '') errs.push(required(`${p}.path`));
    errs.push(...validateMode(item.mode, `${p}.mode`));
  });
  return errs;
}

/** ValidateVolumes: the names of the volumes that validated (the ones a mount may name), and the errors. */
export function validateVolumes(volumes: unknown, path: string): { names: Set<string>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(volumes).forEach((vol, i) => {
    const p = `${path}[${i}]`;
    const el: FieldError[] = [];
    let count = 0;
    for (const kind of VOLUME_SOURCES) {
      const src = vol[kind];
      if (src === undefined || src === null) continue;
      if (count > 0) {
        el.push(forbidden(`${p}.${kind}`, 'may not specify more than 1 volume type'));
        continue;
      }
      count++;
      if (isObj(src)) el.push(...validateSource(kind, src, `${p}.${kind}`));
    }
    if (count === 0) el.push(required(p, 'must specify a volume type'));
    const name = typeof vol.name === 'string' ? vol.name : '';
    if (name === '') el.push(required(`${p}.name`));
    else for (const m of isDNS1123Label(name)) el.push(invalid(`${p}.name`, name, m));
    if (names.has(name)) el.push(duplicate(`${p}.name`, name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  });
  return { names, errs };
}

/** ValidatePodSpec's core rules. */
export function validatePodSpec(spec: Obj, path: string): FieldError[] {
  const { names, errs } = validateVolumes(spec.volumes, `${path}.volumes`);
  errs.push(...validateContainers(spec, names, path));
  const restart = spec.restartPolicy;
  if (typeof restart !== 'string' || restart === '') errs.push(required(`${path}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(restart)) errs.push(notSupported(`${path}.restartPolicy`, restart, RESTART_POLICIES));
  const dns = spec.dnsPolicy;
  if (typeof dns !== 'string' || dns === '') errs.push(required(`${path}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(dns)) errs.push(notSupported(`${path}.dnsPolicy`, dns, DNS_POLICIES));
  errs.push(...nonNegative(spec.terminationGracePeriodSeconds, `${path}.terminationGracePeriodSeconds`));
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds <= 0) {
    errs.push(invalid(`${path}.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'));
  }
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '') {
    for (const m of isDNS1123Subdomain(spec.serviceAccountName)) errs.push(invalid(`${path}.serviceAccountName`, spec.serviceAccountName, m));
  }
  if (spec.nodeSelector !== undefined) errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  return errs;
}

/** ValidatePodTemplateSpec: labels and annotations at `<path>.labels` (kube's paths), the spec, no ephemeral containers. */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  if (!isObj(template)) return [required(path)];
  const meta = isObj(template.metadata) ? template.metadata : {};
  const errs: FieldError[] = [];
  if (meta.labels !== undefined) errs.push(...validateLabels(meta.labels, `${path}.labels`));
  if (meta.annotations !== undefined) errs.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  const spec = isObj(template.spec) ? template.spec : {};
  errs.push(...validatePodSpec(spec, `${path}.spec`));
  if (objects(spec.ephemeralContainers).length > 0) errs.push(forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  return errs;
}
