/**
 * Data that changes rarely (organization settings, linkifiers, custom emoji,
 * the user-group graph), kept in process and dropped whenever the
 * database's cache_version moves (see migrations/0003_cache_version.sql,
 * 0004 and docs/decisions/0011). Authentication reads the version with the
 * caller's row, so every authenticated request sees every change committed
 * before it started, whichever process made it.
 *
 * Until a version has been observed nothing is kept: code outside
 * authenticated requests always reads the database. Only the database
 * handle the cache was made for is served from it: a transaction's handle
 * (which may see its own uncommitted changes) always reads the database,
 * and what it reads is never kept.
 */
import type { Db } from './db.js';
import type { CustomEmojiRow, LinkifierRow, RealmRow } from './rows.js';
import { getRealm, listLinkifiers } from './realm.js';

/** The organization's active custom emoji, by id and by name. */
export interface CustomEmojiSet {
  byId: ReadonlyMap<number, CustomEmojiRow>;
  byName: ReadonlyMap<string, CustomEmojiRow>;
}

/** Every user group's direct members and subgroups, and which users are deactivated. */
export class GroupGraph {
  constructor(
    private readonly members: ReadonlyMap<number, ReadonlySet<number>>,
    private readonly subgroups: ReadonlyMap<number, readonly number[]>,
    private readonly inactive: ReadonlySet<number>,
  ) {}

  /** Whether an active user belongs to the group directly or through any depth of subgroups (as isUserInGroup). */
  contains(groupId: number, userId: number): boolean {
    if (this.inactive.has(userId)) return false;
    const seen = new Set<number>([groupId]);
    const queue = [groupId];
    while (queue.length > 0) {
      const group = queue.pop()!;
      if (this.members.get(group)?.has(userId)) return true;
      for (const subgroup of this.subgroups.get(group) ?? []) {
        if (!seen.has(subgroup)) {
          seen.add(subgroup);
          queue.push(subgroup);
        }
      }
    }
    return false;
  }
}

// The cache serving each root handle, so store functions called with it can use it.
const caches = new WeakMap<Db, SharedCache>();

export class SharedCache {
  #version: number | null = null;
  // Moves with every drop, so a load that started before a drop is not kept after it.
  #generation = 0;
  readonly #entries = new Map<string, unknown>();
  readonly #db: Db | undefined;

  /** With `db`, store functions called with that handle find this cache (`SharedCache.of`). */
  constructor(db?: Db) {
    this.#db = db;
    if (db) caches.set(db, this);
  }

  /** The cache made for this handle, if any (never one for a transaction's handle). */
  static of(db: Db): SharedCache | undefined {
    return caches.get(db);
  }

  /** The database's current cache_version, as read by authentication. */
  observe(version: number): void {
    if (version === this.#version) return;
    this.#version = version;
    this.#generation++;
    this.#entries.clear();
  }

  /** Whether reads through `db` may be served from and kept in this cache now. */
  #usable(db: Db): boolean {
    return this.#version !== null && (this.#db === undefined || db === this.#db);
  }

  async #get<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
    if (!this.#usable(db)) return load();
    if (this.#entries.has(key)) return this.#entries.get(key) as T;
    const generation = this.#generation;
    const value = await load();
    if (generation === this.#generation) this.#entries.set(key, value);
    return value;
  }

  /** The organization (it exists once the database is seeded). Returned objects are shared: never change them. */
  realm(db: Db): Promise<RealmRow | null> {
    return this.#get(db, 'realm', () => getRealm(db));
  }

  /** Linkifiers in application order; the same array until they change (markdown.ts keeps their compiled form by it). */
  linkifiers(db: Db): Promise<readonly LinkifierRow[]> {
    return this.#get(db, 'linkifiers', () => listLinkifiers(db));
  }

  /** The active custom emoji, or null when this handle is not served from the cache (read the database instead). */
  customEmoji(db: Db): Promise<CustomEmojiSet> | null {
    if (!this.#usable(db)) return null;
    return this.#get(db, 'customEmoji', async () => {
      const { rows } = await db.query<CustomEmojiRow>('SELECT * FROM custom_emoji WHERE NOT deactivated');
      return { byId: new Map(rows.map((row) => [row.id, row])), byName: new Map(rows.map((row) => [row.name, row])) };
    });
  }

  /** The user-group graph, or null when this handle is not served from the cache (read the database instead). */
  groupGraph(db: Db): Promise<GroupGraph> | null {
    if (!this.#usable(db)) return null;
    return this.#get(db, 'groupGraph', async () => {
      const { rows } = await db.query<{ members: [number, number][]; subgroups: [number, number][]; inactive: number[] }>(
        `SELECT COALESCE((SELECT json_agg(json_build_array(group_id, user_id)) FROM user_group_members), '[]') AS members,
           COALESCE((SELECT json_agg(json_build_array(group_id, subgroup_id)) FROM user_group_subgroups), '[]') AS subgroups,
           COALESCE((SELECT json_agg(id) FROM users WHERE NOT is_active), '[]') AS inactive`,
      );
      const { members, subgroups, inactive } = rows[0]!;
      const memberSets = new Map<number, Set<number>>();
      for (const [group, user] of members) {
        if (!memberSets.has(group)) memberSets.set(group, new Set());
        memberSets.get(group)!.add(user);
      }
      const subgroupLists = new Map<number, number[]>();
      for (const [group, subgroup] of subgroups) {
        if (!subgroupLists.has(group)) subgroupLists.set(group, []);
        subgroupLists.get(group)!.push(subgroup);
      }
      return new GroupGraph(memberSets, subgroupLists, new Set(inactive));
    });
  }
}
