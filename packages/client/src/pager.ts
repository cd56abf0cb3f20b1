/**
 * Listing a whole collection in pages, as client-go's tools/pager ListPager: `limit` items per
 * request, following `continue` until the server has no more. The server serves every page at
 * the first page's resourceVersion, so the pages together are one consistent snapshot. If the
 * continue token expires mid-way (410), the list starts over in one unpaged request, as the
 * pager's FullListIfExpired does.
 */
import type { APIObject } from '../../../runtime/api/meta.js';
import { isGone } from '../../../runtime/api/status.js';
import type { ListerWatcher } from './listwatch.js';
import type { ListOptions } from './types.js';

/** Items per page; client-go's pager default. */
export const DEFAULT_PAGE_SIZE = 500;

export interface ListAllOptions extends Omit<ListOptions, 'limit' | 'continue'> {
  /** Items per request; 0 lists in one request. Default 500. */
  pageSize?: number;
}

export interface ListSnapshot<T> {
  items: T[];
  /** The revision the whole list was served at. */
  resourceVersion: string;
}

export async function listAll<T extends APIObject>(client: Pick<ListerWatcher<T>, 'list'>, opts: ListAllOptions = {}): Promise<ListSnapshot<T>> {
  const { pageSize = DEFAULT_PAGE_SIZE, ...list } = opts;
  const items: T[] = [];
  let token: string | undefined;
  let resourceVersion = '';
  do {
    let page;
    try {
      page = await client.list({ ...list, ...(pageSize > 0 ? { limit: pageSize } : {}), continue: token });
    } catch (err) {
      if (token === undefined || !isGone(err)) throw err;
      const full = await client.list(list);
      return { items: full.items, resourceVersion: full.metadata.resourceVersion ?? '' };
    }
    items.push(...page.items);
    if (token === undefined) resourceVersion = page.metadata.resourceVersion ?? '';
    token = page.metadata.continue || undefined;
    // A resourceVersion pins the first page only; continue tokens carry it afterwards.
    delete list.resourceVersion;
    delete list.resourceVersionMatch;
  } while (token);
  return { items, resourceVersion };
}
