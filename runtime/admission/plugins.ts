/**
 * kube's --enable-admission-plugins and --disable-admission-plugins over kgen's own admission
 * plugins (each on by default, as in kube): NamespaceLifecycle (no creates in a namespace that is
 * terminating or missing), MutatingAdmissionWebhook and ValidatingAdmissionWebhook. Modules given
 * with --admission are always run: naming them is enabling them. RBAC's escalation checks and the
 * built-in kinds' validation are part of their registries, as in kube, and cannot be turned off.
 */
export const ADMISSION_PLUGINS = ['NamespaceLifecycle', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'] as const;
export type AdmissionPluginName = (typeof ADMISSION_PLUGINS)[number];

/** The plugins that run: the defaults, plus `enable`, less `disable`. Throws kube's messages. */
export function enabledAdmissionPlugins(enable: readonly string[] = [], disable: readonly string[] = []): ReadonlySet<AdmissionPluginName> {
  for (const [flag, names] of [['enable-admission-plugins', enable], ['disable-admission-plugins', disable]] as const) {
    for (const name of names) {
      if (!(ADMISSION_PLUGINS as readonly string[]).includes(name)) {
        throw new Error(`${flag} plugin ${JSON.stringify(name)} is unknown (kgen's admission plugins: ${ADMISSION_PLUGINS.join(', ')})`);
      }
    }
  }
  const overlap = enable.filter((n) => disable.includes(n));
  if (overlap.length > 0) throw new Error(`${overlap.join(', ')} in enable-admission-plugins and disable-admission-plugins overlapped`);
  return new Set(ADMISSION_PLUGINS.filter((n) => !disable.includes(n)));
}
