/**
 * The API enablement, admission and feature flags of `kgen serve`, named as kube-apiserver's:
 * --runtime-config, --enable-admission-plugins, --disable-admission-plugins, --feature-gates.
 */
import type { Command } from 'commander';
import type { ServerOptions } from '../runtime/controlplane/server.js';

export interface APIFlags {
  runtimeConfig: string[];
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  featureGates: string[];
}

/** kube's StringSlice / ConfigurationMap: comma-separated, repeatable (parsed by the runtime). */
const repeat = (value: string, previous: string[]) => [...previous, value];
const names = (value: string, previous: string[]) => [...previous, ...value.split(',').map((v) => v.trim()).filter((v) => v !== '')];

export function addAPIFlags(command: Command): Command {
  return command
    .option('--runtime-config <key=value>', "group/versions to serve or not: api/all, api/ga, api/beta, api/alpha, <group>/<version> (v1 for core) =true|false; comma-separated, repeatable", repeat, [] as string[])
    .option('--enable-admission-plugins <names>', 'admission plugins to enable besides the default ones (NamespaceLifecycle, MutatingAdmissionWebhook, ValidatingAdmissionWebhook)', names, [] as string[])
    .option('--disable-admission-plugins <names>', 'default admission plugins to turn off', names, [] as string[])
    .option('--feature-gates <name=bool>', 'feature gates (CRDValidationRatcheting, ConsistentListFromCache); comma-separated, repeatable', repeat, [] as string[]);
}

/** The startServer options the flags ask for; throws kube's messages for bad values. */
export async function apiServerOptions(flags: APIFlags): Promise<Partial<ServerOptions>> {
  const { enabledAdmissionPlugins, APIEnablement, parseRuntimeConfig, setFeatureGates } = await import('./serve-runtime.js');
  // Checked here so a mistake stops start-up before anything is opened.
  if (flags.runtimeConfig.length > 0) new APIEnablement(parseRuntimeConfig(flags.runtimeConfig));
  setFeatureGates(flags.featureGates);
  return {
    runtimeConfig: flags.runtimeConfig,
    admissionPluginNames: enabledAdmissionPlugins(flags.enableAdmissionPlugins, flags.disableAdmissionPlugins),
    featureGates: flags.featureGates,
  };
}
