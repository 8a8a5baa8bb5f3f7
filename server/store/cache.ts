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
 *
 * With a change feed (`Db.changes`: PGlite's, and PostgreSQL's unless
 * DATABASE_FOLLOW_CHANGES=false), the cache follows the committed changes
 * themselves instead (server/docs/change-feed.md) while the feed is
 * following: it needs no version, and it also keeps authenticated users, so authentication and
 * GET /users/me run no statement once warm, and the part of each message
 * that is the same for every viewer, so GET /messages/{id} reads only the
 * caller's flags (and subscription, where access depends on it).
 */
import type { Db } from './db.js';
import type { OwnUserExtras } from './profile.js';
import type { MessageView } from './messages.js';
import type { CustomEmojiRow, LinkifierRow, RealmRow, UserRow } from './rows.js';
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

/** Freezes a value read from JSON and everything in it, so a shared entry cannot be changed by one of its readers. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

// The cache serving each root handle, so store functions called with it can use it.
const caches = new WeakMap<Db, SharedCache>();

/** A user who authenticated, as authentication read them; `ownUser` only when GET /users/me asked. */
export interface AuthenticatedEntry {
  user: UserRow;
  apiKeyHash: string;
}

/** The generations a load of authentication data started under (`SharedCache.authTicket`). */
export interface AuthTicket {
  users: number;
  ownUser: number;
}

// Past this many usernames, the authentication cache starts again (bounds memory whatever the callers).
const MAX_AUTHENTICATED = 10_000;
// Changes that make a kept user row (and the API key hash) stale: any of the columns authentication reads.
const USER_TABLES = new Set(['users', '*']);
// Changes that make the own-user view's extras stale: the highest message id, profile values, profile fields.
const OWN_USER_TABLES = new Set(['users', 'user_messages', 'custom_profile_values', 'cache_version', '*']);
const SHARED_TABLES = new Set(['cache_version', '*']);
// Changes that make a kept message view stale (migration 0007; users for the sender and participants).
const MESSAGE_TABLES = new Set(['messages', 'message_edits', 'reactions', 'submessages', 'recipient_members', 'channels', 'users', '*']);
// Past this many messages, the message views start again.
const MAX_MESSAGE_VIEWS = 10_000;
// Past this many ids and names, the channel ids start again.
const MAX_CHANNEL_NAMES = 10_000;

export class SharedCache {
  #version: number | null = null;
  // Moves with every drop, so a load that started before a drop is not kept after it.
  #generation = 0;
  readonly #entries = new Map<string, unknown>();
  // Channel ids by the id or name a request gave (only channels that exist), dropped with the other entries.
  readonly #channelIds = new Map<number | string, number>();
  readonly #db: Db | undefined;
  // With a change feed only: authenticated users by the username they gave, and the own-user extras.
  readonly #authenticated = new Map<string, AuthenticatedEntry>();
  readonly #ownUser = new Map<string, OwnUserExtras>();
  readonly #authGeneration = { users: 0, ownUser: 0 };
  // With a change feed only: each message as every viewer sees it, by id.
  readonly #messageViews = new Map<number, MessageView>();
  #messageGeneration = 0;

  /** With `db`, store functions called with that handle find this cache (`SharedCache.of`). */
  constructor(db?: Db) {
    this.#db = db;
    if (db) caches.set(db, this);
    // Changes are known as they commit: usable at once, dropped by the change itself.
    db?.changes?.subscribe((table) => {
      if (SHARED_TABLES.has(table)) this.#drop();
      // A feed that stopped following reports `*`: until it follows again, the version authentication reads decides.
      if (table === '*') this.#version = db.changes!.following ? 0 : null;
      if (USER_TABLES.has(table)) {
        this.#authGeneration.users++;
        this.#authenticated.clear();
      }
      if (OWN_USER_TABLES.has(table)) {
        this.#authGeneration.ownUser++;
        this.#ownUser.clear();
      }
      if (MESSAGE_TABLES.has(table)) {
        this.#messageGeneration++;
        this.#messageViews.clear();
      }
    });
    if (db?.changes?.following) this.#version = 0;
  }

  /** The cache made for this handle, if any (never one for a transaction's handle). */
  static of(db: Db): SharedCache | undefined {
    return caches.get(db);
  }

  /** The database's current cache_version, as read by authentication (with a change feed, the feed is what counts). */
  observe(version: number): void {
    if (this.#db?.changes?.following || version === this.#version) return;
    this.#version = version;
    this.#drop();
  }

  #drop(): void {
    this.#generation++;
    this.#entries.clear();
    this.#channelIds.clear();
  }

  /** Whether `db` may use what is kept by following changes (authentications, own-user extras, message views): only with a change feed, on the handle it was made for. */
  #followsChanges(db: Db): boolean {
    return this.#db?.changes?.following === true && db === this.#db;
  }

  /** The user who last authenticated under this username, with the own-user extras when kept; undefined when not kept. */
  authenticated(db: Db, username: string): (AuthenticatedEntry & { ownUser: OwnUserExtras | undefined }) | undefined {
    if (!this.#followsChanges(db)) return undefined;
    const entry = this.#authenticated.get(username);
    return entry && { ...entry, ownUser: this.#ownUser.get(username) };
  }

  /** Taken before authentication reads the database: what it read is kept only if nothing changed since; undefined where nothing is kept. */
  authTicket(db: Db): AuthTicket | undefined {
    return this.#followsChanges(db) ? { ...this.#authGeneration } : undefined;
  }

  /** Keeps a successful authentication (and the own-user extras read with it) unless a change came after `ticket`. */
  keepAuthenticated(db: Db, username: string, ticket: AuthTicket, entry: AuthenticatedEntry, ownUser: OwnUserExtras | undefined): void {
    if (!this.#followsChanges(db) || ticket.users !== this.#authGeneration.users) return;
    if (this.#authenticated.size >= MAX_AUTHENTICATED && !this.#authenticated.has(username)) {
      this.#authenticated.clear();
      this.#ownUser.clear();
    }
    this.#authenticated.set(username, entry);
    if (ownUser && ticket.ownUser === this.#authGeneration.ownUser) this.#ownUser.set(username, ownUser);
  }

  /** The kept view of a message (shared and frozen), or undefined when not kept or `db` may not use it. */
  messageView(db: Db, id: number): MessageView | undefined {
    return this.#followsChanges(db) ? this.#messageViews.get(id) : undefined;
  }

  /** Taken before a message view is read from the database: it is kept only if no change came since; undefined where nothing is kept. */
  messageTicket(db: Db): number | undefined {
    return this.#followsChanges(db) ? this.#messageGeneration : undefined;
  }

  /** Keeps a message view read under `ticket`, frozen, unless a change came after it. */
  keepMessageView(db: Db, ticket: number, view: MessageView): void {
    if (!this.#followsChanges(db) || ticket !== this.#messageGeneration) return;
    if (this.#messageViews.size >= MAX_MESSAGE_VIEWS) this.#messageViews.clear();
    this.#messageViews.set(view.id, deepFreeze(view));
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

  /**
   * The id of the channel a request named, by its id or by its name (compared
   * as the database compares names: case-insensitively), or null when there
   * is no such channel; null instead of a promise when this handle is not
   * served from the cache. A rename or a removal moves cache_version
   * (migration 0009).
   */
  channelId(db: Db, named: number | string): Promise<number | null> | null {
    if (!this.#usable(db)) return null;
    const kept = this.#channelIds.get(named);
    if (kept !== undefined) return Promise.resolve(kept);
    const generation = this.#generation;
    const statement = typeof named === 'number' ? 'SELECT id FROM channels WHERE id = $1' : 'SELECT id FROM channels WHERE lower(name) = lower($1)';
    return db.query<{ id: number }>(statement, [named]).then(({ rows }) => {
      const id = rows[0]?.id ?? null;
      // Channels that do not exist are not kept, so requests cannot grow the map with them.
      if (id !== null && generation === this.#generation) {
        if (this.#channelIds.size >= MAX_CHANNEL_NAMES) this.#channelIds.clear();
        this.#channelIds.set(named, id);
      }
      return id;
    });
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
