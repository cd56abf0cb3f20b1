/**
 * `kgen migrate-storage`: rewrites every object of every multi-version resource in the server's
 * current storage version, as kube's storage version migrator does: for each object, a no-op
 * update through the API (a PUT of the object as read, with its resourceVersion as precondition),
 * which the server decodes from the version the object was stored in and encodes in the storage
 * version. A conflict means someone wrote the object meanwhile: it is read again and retried. An
 * object already stored in the storage version is not rewritten (the server skips no-op writes).
 *
 * Which resources: those discovery lists in more than one version of their group, plus any named
 * with --resource (a resource whose old versions are no longer served, for instance).
 */
import type { Command } from 'commander';
import type { KubeObject } from '../runtime/api/meta.js';
import type { RestClient } from '@kgen/client';

/** How many times one object's no-op update is retried on conflict. */
const MAX_CONFLICT_RETRIES = 5;
const PAGE_SIZE = 500;

export interface MigrationTarget {
  group: string;
  /** The version the objects are read and written through (the group's preferred one that has the resource). */
  version: string;
  plural: string;
  namespaced: boolean;
}

export interface MigrationResult {
  target: MigrationTarget;
  /** Objects updated unchanged (the server rewrote those stored in another version; the rest were no-ops). */
  migrated: number;
  /** Objects deleted before they could be updated. */
  gone: number;
}

interface APIGroupList {
  groups: { name: string; versions: { version: string }[]; preferredVersion?: { version: string } }[];
}
interface APIResourceList {
  resources: { name: string; namespaced: boolean; verbs?: string[] }[];
}

const qualified = (t: { plural: string; group: string }) => (t.group ? `${t.plural}.${t.group}` : t.plural);
const gvPath = (group: string, version: string) => (group ? `/apis/${group}/${version}` : `/api/${version}`);

function statusCode(err: unknown): number | undefined {
  const code = (err as { status?: { code?: unknown }; code?: unknown })?.status?.code ?? (err as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * The resources to migrate: every resource served in several versions of its group, and the
 * `extra` ones (`plural.group`, or `plural` for the core group). Read through the preferred version.
 */
export async function migrationTargets(rest: RestClient, extra: string[] = []): Promise<MigrationTarget[]> {
  const groups = (await rest.request<APIGroupList>({ method: 'GET', path: '/apis' })).groups.map((g) => ({
    name: g.name,
    versions: orderPreferredFirst(g.versions.map((v) => v.version), g.preferredVersion?.version),
  }));
  groups.unshift({ name: '', versions: ['v1'] });
  const wanted = new Set(extra);
  const targets: MigrationTarget[] = [];
  for (const group of groups) {
    const seen = new Map<string, { versions: string[]; namespaced: boolean }>();
    for (const version of group.versions) {
      let list: APIResourceList;
      try {
        list = await rest.request<APIResourceList>({ method: 'GET', path: gvPath(group.name, version) });
      } catch (err) {
        if (statusCode(err) === 404) continue;
        throw err;
      }
      for (const r of list.resources) {
        if (r.name.includes('/') || !r.verbs?.includes('update') || !r.verbs.includes('list')) continue;
        const entry = seen.get(r.name) ?? { versions: [], namespaced: r.namespaced };
        entry.versions.push(version);
        seen.set(r.name, entry);
      }
    }
    for (const [plural, { versions, namespaced }] of seen) {
      const name = qualified({ plural, group: group.name });
      if (versions.length > 1 || wanted.has(name)) targets.push({ group: group.name, version: versions[0]!, plural, namespaced });
      wanted.delete(name);
    }
  }
  if (wanted.size > 0) throw new Error(`no such resource: ${[...wanted].join(', ')} (name resources as plural.group, e.g. widgets.widgets.example.com)`);
  return targets;
}

function orderPreferredFirst(versions: string[], preferred: string | undefined): string[] {
  return preferred && versions.includes(preferred) ? [preferred, ...versions.filter((v) => v !== preferred)] : versions;
}

/** Rewrites every object of one resource; see the module comment. */
export async function migrateResource(rest: RestClient, target: MigrationTarget): Promise<MigrationResult> {
  const result: MigrationResult = { target, migrated: 0, gone: 0 };
  const base = `${gvPath(target.group, target.version)}/${target.plural}`;
  let continueToken: string | undefined;
  do {
    const page = await rest.request<{ items: KubeObject[]; metadata: { continue?: string } }>({
      method: 'GET',
      path: base,
      query: { limit: PAGE_SIZE, continue: continueToken },
    });
    for (const item of page.items) {
      if (await rewrite(rest, target, item)) result.migrated++;
      else result.gone++;
    }
    continueToken = page.metadata.continue || undefined;
  } while (continueToken);
  return result;
}

/** One object's no-op update, retried on conflict; false when the object was deleted meanwhile. */
async function rewrite(rest: RestClient, target: MigrationTarget, listed: KubeObject): Promise<boolean> {
  const { name, namespace } = listed.metadata;
  const path = `${gvPath(target.group, target.version)}/${target.namespaced && namespace ? `namespaces/${namespace}/` : ''}${target.plural}/${name}`;
  let obj = listed;
  for (let attempt = 0; ; attempt++) {
    try {
      await rest.request({ method: 'PUT', path, body: obj });
      return true;
    } catch (err) {
      const code = statusCode(err);
      if (code === 404) return false;
      if (code !== 409 || attempt >= MAX_CONFLICT_RETRIES) throw err;
    }
    try {
      obj = await rest.request<KubeObject>({ method: 'GET', path });
    } catch (err) {
      if (statusCode(err) === 404) return false;
      throw err;
    }
  }
}

export interface MigrateStorageOptions {
  kubeconfig?: string;
  context?: string;
  resource: string[];
}

/** Migrates every target, printing one line per resource; returns the results. */
export async function migrateStorage(rest: RestClient, resources: string[] = [], log: (line: string) => void = () => {}): Promise<MigrationResult[]> {
  const results: MigrationResult[] = [];
  for (const target of await migrationTargets(rest, resources)) {
    const result = await migrateResource(rest, target);
    results.push(result);
    log(`${qualified(target)}: ${result.migrated} objects migrated${result.gone ? `, ${result.gone} deleted meanwhile` : ''}`);
  }
  if (results.length === 0) log('no resource is served in more than one version; nothing to migrate');
  return results;
}

export function registerMigrateStorage(program: Command): void {
  program
    .command('migrate-storage')
    .description("rewrite every object of every multi-version resource in the server's current storage version (kube's storage version migrator)")
    .option('--kubeconfig <path>', 'kubeconfig of the server (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context (default: its current-context)')
    .option('--resource <plural.group>', 'also migrate this resource (repeatable)', (value: string, prev: string[]) => [...prev, value], [] as string[])
    .action(async (opts: MigrateStorageOptions) => {
      const { RestClient, loadKubeconfig } = await import('@kgen/client');
      let rest: InstanceType<typeof RestClient>;
      try {
        rest = new RestClient(loadKubeconfig(opts.kubeconfig, opts.context));
      } catch (err) {
        // A kubeconfig that is missing or names no such context: the user's to fix, not a trace.
        console.error(`error: ${(err as Error).message}`);
        process.exitCode = 1;
        return;
      }
      try {
        await migrateStorage(rest, opts.resource, (line) => console.log(line));
      } catch (err) {
        console.error(`error: ${(err as Error).message}`);
        process.exitCode = 1;
      } finally {
        rest.close();
      }
    });
}
