/**
 * kubectl keeps discovery on disk per server host:port (`~/.kube/cache/discovery/127.0.0.1_<port>`,
 * trusted for 6 hours). Test servers listen on port 0, so a port is reused by later servers with
 * other APIs, and kubectl then maps a resource to a group the new server does not serve (seen as
 * `kubectl get widgets` failing with a 404 under parallel test files). A test server forgets its
 * port's cached discovery when it starts, before kubectl first talks to it; kubectl then fetches
 * discovery as it does for a server it has never seen.
 */
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** kubectl's cache directory: $KUBECACHEDIR, else ~/.kube/cache (kubectl's --cache-dir default). */
function kubectlCacheDir(): string {
  return process.env.KUBECACHEDIR || join(homedir(), '.kube', 'cache');
}

/** Removes kubectl's cached discovery for the server at url (client-go's computeDiscoverCacheDir naming). */
export function forgetKubectlDiscovery(url: string): void {
  const host = new URL(url).host;
  const dirName = host.replace(/[^(\w/.)]/g, '_');
  rmSync(join(kubectlCacheDir(), 'discovery', dirName), { recursive: true, force: true });
}
