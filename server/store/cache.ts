/**
 * Data that changes rarely (organization settings, linkifiers), kept in
 * process and dropped whenever the database's cache_version moves (see
 * migrations/0003_cache_version.sql and docs/decisions). Authentication reads
 * the version with the caller's row, so every authenticated request sees
 * every change committed before it started, whichever process made it.
 *
 * Until a version has been observed nothing is kept: code outside
 * authenticated requests always reads the database.
 */
import type { Db } from './db.js';
import type { LinkifierRow, RealmRow } from './rows.js';
import { getRealm, listLinkifiers } from './realm.js';

export class SharedCache {
  #version: number | null = null;
  // Moves with every drop, so a load that started before a drop is not kept after it.
  #generation = 0;
  readonly #entries = new Map<string, unknown>();

  /** The database's current cache_version, as read by authentication. */
  observe(version: number): void {
    if (version === this.#version) return;
    this.#version = version;
    this.#generation++;
    this.#entries.clear();
  }

  async #get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.#entries.has(key)) return this.#entries.get(key) as T;
    const generation = this.#generation;
    const value = await load();
    if (generation === this.#generation && this.#version !== null) this.#entries.set(key, value);
    return value;
  }

  /** The organization (it exists once the database is seeded). Returned objects are shared: never change them. */
  realm(db: Db): Promise<RealmRow | null> {
    return this.#get('realm', () => getRealm(db));
  }

  /** Linkifiers in application order; the same array until they change (markdown.ts keeps their compiled form by it). */
  linkifiers(db: Db): Promise<readonly LinkifierRow[]> {
    return this.#get('linkifiers', () => listLinkifiers(db));
  }
}
