/**
 * A recursive watch of a folder for `kgen generate --watch`, made of one fs.watch per folder.
 *
 * Not node's `fs.watch(dir, { recursive: true })`: on Linux (node 20) that one watches every file
 * by its inode, and once a file is replaced (an editor's atomic save: a temporary file renamed over
 * it; a checkout that removes and creates it) it keeps watching the replaced inode, so every later
 * save of that file, atomic or in place, goes unreported. A folder's own watch reports its entries
 * by name (created, removed, renamed, written), whatever inode they are now.
 *
 * New folders are watched as they appear, and the entries already in them reported (they may have
 * been written before the watch was in place); removed ones are dropped. A folder reached through
 * a symbolic link is watched once (by its real path), and a symbolic link to a file is watched
 * itself too, since a write to its target changes nothing in the folder holding the link.
 *
 * Paths `ignore` names (kgen's own output, when it lies inside the watched folder) are neither
 * watched nor reported.
 */
import { watch, readdirSync, realpathSync, statSync, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface TreeWatch {
  close(): void;
}

/** Calls onEvent with the changed path relative to root, or undefined when the system did not name one. */
export function watchTree(root: string, onEvent: (file: string | undefined) => void, ignore: (path: string) => boolean = () => false): TreeWatch {
  /** Watched folders (and linked files) by path, and the real paths of the folders. */
  const watchers = new Map<string, FSWatcher>();
  const realFolders = new Map<string, string>();
  let closed = false;

  const report = (path: string) => onEvent(relative(root, path));

  const drop = (path: string) => {
    for (const [p, w] of watchers) {
      if (p === path || p.startsWith(path + sep)) {
        w.close();
        watchers.delete(p);
        realFolders.delete(p);
      }
    }
  };

  const watchLinkedFile = (path: string) => {
    if (watchers.has(path)) return;
    try {
      const w = watch(path, () => report(path));
      w.on('error', () => drop(path));
      watchers.set(path, w);
    } catch {
      // Gone, or a dangling link: the folder's watch reports what happens to the link.
    }
  };

  /** Watches a folder and the folders under it; announce: report the entries found (a folder that just appeared). */
  const watchFolder = (dir: string, announce: boolean): void => {
    if (closed || watchers.has(dir) || ignore(dir)) return;
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    // A link back up the tree (or to a folder watched already by another path) is not followed again.
    for (const r of realFolders.values()) if (r === real) return;
    let w: FSWatcher;
    try {
      w = watch(dir, (_event, name) => onFolderEvent(dir, name === null || name === undefined ? undefined : String(name)));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw err;
    }
    w.on('error', () => drop(dir));
    watchers.set(dir, w);
    realFolders.set(dir, real);
    // Listed after the watch is in place: an entry made meanwhile is reported by one or the other.
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) examine(join(dir, name), announce, announce);
  };

  /** A folder entry seen for the first time (announce: report it), or named by an event (reported already); announceInside: report what a folder holds. */
  const examine = (path: string, announce: boolean, announceInside: boolean): void => {
    if (ignore(path)) return;
    let isDir = false;
    let linkedFile = false;
    try {
      isDir = statSync(path).isDirectory();
      linkedFile = !isDir && realpathSync(path) !== path;
    } catch {
      // Removed (or a dangling link).
    }
    if (announce) report(path);
    if (isDir) watchFolder(path, announceInside);
    else if (linkedFile) watchLinkedFile(path);
  };

  const onFolderEvent = (dir: string, name: string | undefined): void => {
    if (closed) return;
    if (name === undefined) {
      onEvent(undefined);
      return;
    }
    const path = join(dir, name);
    if (ignore(path)) return;
    report(path);
    if (watchers.has(path)) {
      // A folder (or linked file) watched already: removed or renamed away, or still there.
      try {
        statSync(path);
      } catch {
        drop(path);
      }
      return;
    }
    // A folder that appears is new, and so is everything in it.
    examine(path, false, true);
  };

  watchFolder(root, false);
  return {
    close() {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
      realFolders.clear();
    },
  };
}
