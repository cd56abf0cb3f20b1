/**
 * Assembling admission for a server: the built-in plugins, the plugins the embedder passes, and
 * user admission modules (`kgen serve --admission ./admission.ts`).
 *
 * An admission module is imported once, before the server serves. It attaches typed hooks to the
 * generated registrations it imports (`widgets.admission({...})`) and may default-export an
 * AdmissionPlugin or a list of them, which join the chain in order.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AdmissionChain } from './chain.js';
import type { AdmissionPlugin } from '../api/admission.js';
import { webhookConfigurationValidation } from './webhook/validation.js';

/** The chain every server starts with: kgen's built-in plugins, then `plugins`. */
export function newAdmissionChain(plugins: readonly AdmissionPlugin[] = []): AdmissionChain {
  return new AdmissionChain([webhookConfigurationValidation, ...plugins]);
}

function isPlugin(value: unknown): value is AdmissionPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Partial<AdmissionPlugin>;
  return typeof p.name === 'string' && (typeof p.mutate === 'function' || typeof p.validate === 'function');
}

/** Imports each module (paths relative to the working directory) and adds its default-exported plugins. */
export async function loadAdmissionModules(paths: readonly string[], chain: AdmissionChain): Promise<void> {
  for (const path of paths) {
    const mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
    if (mod.default === undefined) continue;
    const plugins = Array.isArray(mod.default) ? mod.default : [mod.default];
    for (const plugin of plugins) {
      if (!isPlugin(plugin)) throw new Error(`${path}: the default export must be an AdmissionPlugin ({ name, mutate?, validate? }) or a list of them`);
      chain.addPlugin(plugin);
    }
  }
}
