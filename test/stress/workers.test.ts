/**
 * Several server processes on one PostgreSQL: the in-process caches
 * (organization settings, linkifiers, custom emoji, user groups) follow every
 * change whichever process or connection made it, as soon as PostgreSQL's
 * notification of it arrives (server/docs/change-feed.md: another session's
 * change reaches a process asynchronously, so these wait for it, within
 * seconds); `teamchat serve --workers N` serves from N processes behind one
 * port, and refuses N > 1 on the embedded database.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../generated/client.js';
import { CUSTOM_EMOJI, GROUP, MESSAGES, USER } from '../../server/seed/demo-data.js';
import type { DbHandle } from '../../server/store/db.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { repoRoot } from '../support/process.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';

const MEMBER = 'member@example.com';
// A channel message whose topic is "deploys", and one in the empty topic of general.
const DEPLOY_ID = MESSAGES.deployDone.id;
const LUNCH_ID = MESSAGES.lunch.id;

let pg: ThrowawayPostgres;
let dataDir: string;
const running: ServeProcess[] = [];
const handles: DbHandle[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  dataDir = mkdtempSync(join(tmpdir(), 'teamchat-workers-'));
  const admin = await openPostgres({ url: pg.url });
  await admin.exec('CREATE DATABASE two_processes');
  await admin.exec('CREATE DATABASE two_processes_groups');
  await admin.exec('CREATE DATABASE cluster');
  await admin.close();
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.kill()));
  await Promise.all(handles.map((db) => db.close()));
  await pg?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function database(name: string): Promise<{ url: string; db: DbHandle }> {
  const url = pg.url.replace(/\/postgres$/, `/${name}`);
  const db = await openPostgres({ url });
  handles.push(db);
  return { url, db };
}

async function serve(url: string, args: string[]): Promise<ServeProcess> {
  const server = await startServeProcess({ DATABASE_URL: url, DATA_DIR: dataDir, SECRET_KEY: 'e'.repeat(64) }, args);
  running.push(server);
  return server;
}

const client = (server: ServeProcess, apiKey: string): Client => createClient({ baseUrl: server.url, email: MEMBER, apiKey, timeoutMs: 10_000 });

// Another session's change reaches each process as PostgreSQL notifies it: wait for it, boundedly.
const NOTIFIED = { timeout: 10_000, interval: 20 };

async function view(member: Client): Promise<{ links: string[]; emptyTopic: string }> {
  const deploy = await member.getMessage({ message_id: DEPLOY_ID });
  const lunch = await member.getMessage({ message_id: LUNCH_ID });
  return { links: deploy.message.topic_links!.map((link) => link.url), emptyTopic: lunch.message.subject };
}

describe('two server processes on one PostgreSQL', () => {
  it('see a linkifier and an organization setting changed elsewhere once PostgreSQL notifies them', async () => {
    const { url, db } = await database('two_processes');
    const a = await serve(url, ['--seed-demo']);
    const b = await serve(url, []);
    const apiKey = a.apiKeys.get(MEMBER)!;
    const [onA, onB] = [client(a, apiKey), client(b, apiKey)];
    // Both caches are warm with the seeded values.
    const before = await view(onB);
    expect(before).toEqual(await view(onA));
    expect(before.links).toEqual([]);
    expect(before.emptyTopic).toBe('general chat');

    // An operator's connection, neither process, changes both.
    await db.query(`INSERT INTO linkifiers (pattern, url_template, sort_order) VALUES ('deploys', 'https://deploys.example.com/', 99)`);
    await db.query(`UPDATE realm SET empty_topic_display_name = 'lobby' WHERE id = 1`);
    for (const member of [onB, onA]) {
      await vi.waitFor(async () => expect(await view(member)).toEqual({ links: ['https://deploys.example.com/'], emptyTopic: 'lobby' }), NOTIFIED);
    }

    // And back: a removal is seen as quickly.
    await db.query(`DELETE FROM linkifiers WHERE sort_order = 99`);
    for (const member of [onA, onB]) await vi.waitFor(async () => expect((await view(member)).links).toEqual([]), NOTIFIED);

    // A narrow names the empty topic by the display name it has now.
    const starred = await onB.updateMessageFlagsForNarrow({
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow: [{ operator: 'topic', operand: 'lobby' }],
      op: 'add',
      flag: 'starred',
    });
    expect(starred.first_processed_id).toBe(LUNCH_ID);
  });
});

describe('two server processes on one PostgreSQL, custom emoji and user groups', () => {
  it('see a deactivated custom emoji and a changed group membership once PostgreSQL notifies them', async () => {
    const { url, db } = await database('two_processes_groups');
    const a = await serve(url, ['--seed-demo']);
    const b = await serve(url, []);
    const apiKey = a.apiKeys.get(MEMBER)!;
    const [onA, onB] = [client(a, apiKey), client(b, apiKey)];
    let invitee = 0;
    const invite = (member: Client) => member.sendInvites({ invitee_emails: `guest${++invitee}@example.com`, stream_ids: [] });
    const status = (member: Client) => member.updateStatus({ emoji_name: CUSTOM_EMOJI.name });
    const ok = { result: 'success', msg: '' };
    // Warm: the member may invite (role:members) and use the custom emoji, on both processes.
    for (const member of [onA, onB]) {
      await expect(invite(member)).resolves.toEqual(ok);
      await expect(status(member)).resolves.toEqual(ok);
    }

    // An operator's connection takes the member out of role:members (directly and through role:fullmembers) and deactivates the emoji.
    const roleGroups = [GROUP['role:members'], GROUP['role:fullmembers']];
    await db.query('DELETE FROM user_group_members WHERE group_id = ANY ($1::integer[]) AND user_id = $2', [roleGroups, USER.dana]);
    await db.query('UPDATE custom_emoji SET deactivated = true WHERE id = $1', [CUSTOM_EMOJI.id]);
    for (const member of [onB, onA]) {
      await vi.waitFor(() => expect(invite(member)).rejects.toMatchObject({ status: 400, msg: 'Insufficient permission' }), NOTIFIED);
      await vi.waitFor(() => expect(status(member)).rejects.toMatchObject({ status: 400, msg: 'Emoji does not exist' }), NOTIFIED);
    }

    // And back.
    await db.query('INSERT INTO user_group_members (group_id, user_id) SELECT unnest($1::integer[]), $2', [roleGroups, USER.dana]);
    await db.query('UPDATE custom_emoji SET deactivated = false WHERE id = $1', [CUSTOM_EMOJI.id]);
    for (const member of [onA, onB]) {
      await vi.waitFor(() => expect(invite(member)).resolves.toEqual(ok), NOTIFIED);
      await vi.waitFor(() => expect(status(member)).resolves.toEqual(ok), NOTIFIED);
    }
  });
});

describe('teamchat serve --workers 2', () => {
  it('serves from two processes on one port and every one of them follows changes', async () => {
    const { url, db } = await database('cluster');
    const server = await serve(url, ['--seed-demo', '--workers', '2']);
    expect(server.output()).toContain('2 server processes');
    const member = client(server, server.apiKeys.get(MEMBER)!);
    // Each request opens its own connection, so the port spreads them over both workers.
    const first = await Promise.all(Array.from({ length: 12 }, () => view(member)));
    expect(new Set(first.map((seen) => JSON.stringify(seen))).size).toBe(1);

    await db.query(`UPDATE realm SET empty_topic_display_name = 'atrium' WHERE id = 1`);
    await vi.waitFor(async () => {
      const after = await Promise.all(Array.from({ length: 12 }, () => view(member)));
      expect(after.every((seen) => seen.emptyTopic === 'atrium')).toBe(true);
    }, NOTIFIED);
  });

  it('refuses more than one worker on the embedded database, saying why', () => {
    const result = spawnSync(process.execPath, [join(repoRoot, 'bin/teamchat.js'), 'serve', '--no-generate', '--workers', '2'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, SECRET_KEY: 'e'.repeat(64) },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--workers above 1 needs PostgreSQL (set DATABASE_URL)');
  });
});
