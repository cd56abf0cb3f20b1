/**
 * Who may own the folders kgen keeps private keys and data in (`<data-dir>`, `<data-dir>/pki` and
 * each credential under it). kgen trusts what it finds there: a CA in `pki/ca` signs the client
 * certificates it accepts, the service-account key signs tokens, and the database holds every
 * object. A data dir in a shared place (`/tmp/kgen`) that another local user made first, or a
 * `pki/` folder they made in it, would hand them all of that. So each of those folders must be
 * owned by this user (or root, who can change anything anyway); a `pki/` of this user's that
 * others may read or write is tightened to 0700, as it was meant to be made (etcd warns about a
 * loose data dir; kgen, which keeps private keys in it, refuses or tightens instead).
 *
 * `uid` is the process's (undefined where there is no POSIX ownership, as on Windows, where
 * nothing is checked); tests pass another.
 */
import { chmodSync, mkdirSync, statSync, type Stats } from 'node:fs';

const currentUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Throws unless `path` (already stat'ed as `st`) is owned by `uid` or root. */
export function assertOwnedBy(path: string, st: Stats, what: string, uid: number | undefined = currentUid()): void {
  if (uid === undefined || st.uid === uid || st.uid === 0) return;
  throw new Error(
    `${what} ${path} belongs to uid ${st.uid}, not to this user (uid ${uid}): whoever owns it could replace the credentials ` +
      `or the data kgen keeps there. Remove it, or choose a --data-dir of your own.`,
  );
}

/**
 * Makes `dir` (mode 0700, parents as needed) unless it exists, and checks it as the folder of
 * private keys: a directory, owned by this user or root, and closed to group and others (this
 * user's is tightened to 0700; root's that others may write is refused).
 */
export function claimCredentialDir(dir: string, uid: number | undefined = currentUid()): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory; kgen keeps its credentials there`);
  if (uid === undefined) return;
  assertOwnedBy(dir, st, 'the credentials folder', uid);
  if ((st.mode & 0o077) === 0) return;
  if (st.uid === uid) chmodSync(dir, 0o700);
  else if (st.mode & 0o022) throw new Error(`the credentials folder ${dir} may be written by group or others (mode ${(st.mode & 0o777).toString(8)}); make it 0700`);
}

/** Throws unless the existing credential `path` (a folder or file under pki/) is this user's or root's. */
export function assertCredentialOwner(path: string, uid: number | undefined = currentUid()): void {
  assertOwnedBy(path, statSync(path), 'the credential', uid);
}
