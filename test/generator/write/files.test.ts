import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutputFile } from '../../../generator/targets/types.js';
import { removeObsolete, writeFiles, Writer } from '../../../generator/write.js';
import { BANNER_MARK } from '../../../generator/targets/banner.js';
import { existsSync, mkdirSync } from 'node:fs';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamchat-write-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const file = (path: string, contents: string, ownership: OutputFile['ownership'] = 'generated'): OutputFile => ({ path, contents, ownership });

describe('writeFiles', () => {
  it('creates folders, normalises line endings and leaves no temporary files', async () => {
    const results = await writeFiles(root, [file('out/deep/a.ts', 'one\r\ntwo\rthree\n')], { check: false });
    expect(results).toEqual([{ path: 'out/deep/a.ts', status: 'written' }]);
    expect(readFileSync(join(root, 'out/deep/a.ts'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(readdirSync(join(root, 'out/deep'))).toEqual(['a.ts']);
  });

  it('does not rewrite a file whose bytes did not change', async () => {
    await writeFiles(root, [file('a.ts', 'same\n'), file('b.ts', 'old\n')], { check: false });
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(root, 'a.ts'), past, past);
    utimesSync(join(root, 'b.ts'), past, past);

    const results = await writeFiles(root, [file('a.ts', 'same\n'), file('b.ts', 'new\n')], { check: false });
    expect(results.map((r) => r.status)).toEqual(['unchanged', 'written']);
    expect(statSync(join(root, 'a.ts')).mtimeMs).toBe(past.getTime());
    expect(statSync(join(root, 'b.ts')).mtimeMs).toBeGreaterThan(past.getTime());
  });

  it('replaces a file by rename, so a reader holding the old inode sees the old contents', async () => {
    await writeFiles(root, [file('a.ts', 'old\n')], { check: false });
    const before = statSync(join(root, 'a.ts')).ino;
    await writeFiles(root, [file('a.ts', 'new\n')], { check: false });
    expect(statSync(join(root, 'a.ts')).ino).not.toBe(before);
    expect(readFileSync(join(root, 'a.ts'), 'utf8')).toBe('new\n');
  });

  it('in check mode writes nothing and names stale and missing files', async () => {
    writeFileSync(join(root, 'a.ts'), 'same\n');
    writeFileSync(join(root, 'b.ts'), 'old\n');
    const results = await writeFiles(root, [file('a.ts', 'same\n'), file('b.ts', 'new\n'), file('c.ts', 'x\n', 'scaffold')], { check: true });
    expect(results).toEqual([
      { path: 'a.ts', status: 'unchanged' },
      { path: 'b.ts', status: 'stale' },
      { path: 'c.ts', status: 'missing' },
    ]);
    expect(readFileSync(join(root, 'b.ts'), 'utf8')).toBe('old\n');
    expect(readdirSync(root).sort()).toEqual(['a.ts', 'b.ts']);
  });

  it('writes a scaffold when missing, keeps it when the target hands back the same bytes', async () => {
    await writeFiles(root, [file('h.ts', 'scaffold\n', 'scaffold')], { check: false });
    writeFileSync(join(root, 'h.ts'), 'hand edited\n');
    const results = await writeFiles(root, [file('h.ts', 'hand edited\n', 'scaffold')], { check: false });
    expect(results).toEqual([{ path: 'h.ts', status: 'unchanged' }]);
    expect(readFileSync(join(root, 'h.ts'), 'utf8')).toBe('hand edited\n');
  });

  it('refuses paths outside the root and duplicate paths before writing anything', async () => {
    await expect(writeFiles(root, [file('a.ts', 'x'), file('../escape.ts', 'x')], { check: false })).rejects.toThrow(/outside/);
    await expect(writeFiles(root, [file('a.ts', 'x'), file('./a.ts', 'y')], { check: false })).rejects.toThrow(/share the path/);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('Writer', () => {
  const listed = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

  it('stages files under temporary names, and puts them in place only on commit', () => {
    writeFileSync(join(root, 'kept.ts'), 'old\n');
    const writer = new Writer(root, { check: false });
    const first = [file('kept.ts', 'new\n')];
    const second = [file('out/deep/b.ts', 'b\n')];
    writer.stage(first);
    writer.stage(second);
    expect(readFileSync(join(root, 'kept.ts'), 'utf8')).toBe('old\n');
    // The new folder is staged whole under a hidden temporary name; nothing shows at `out` yet.
    expect(listed(root).filter((name) => !name.split('/')[0]!.endsWith('.tmp'))).toEqual(['kept.ts']);
    const results = writer.commit([...second, ...first]);
    expect([results.get(first[0]!), results.get(second[0]!)]).toEqual([
      { path: 'kept.ts', status: 'written' },
      { path: 'out/deep/b.ts', status: 'written' },
    ]);
    expect(listed(root)).toEqual(['kept.ts', 'out', 'out/deep', 'out/deep/b.ts']);
    expect(readFileSync(join(root, 'kept.ts'), 'utf8')).toBe('new\n');
  });

  it('discards what it staged and the folders it made, leaving existing files as they were', () => {
    mkdirSync(join(root, 'out'));
    writeFileSync(join(root, 'out/a.ts'), 'old\n');
    const writer = new Writer(root, { check: false });
    writer.stage([file('out/a.ts', 'new\n'), file('out/new/deeper/b.ts', 'b\n')]);
    expect(listed(root).length).toBeGreaterThan(2);
    writer.discard();
    expect(listed(root)).toEqual(['out', 'out/a.ts']);
    expect(readFileSync(join(root, 'out/a.ts'), 'utf8')).toBe('old\n');
  });

  it('stages a new folder whole and renames it into place once, beside files of existing folders', () => {
    mkdirSync(join(root, 'gen'));
    writeFileSync(join(root, 'gen/old.ts'), 'old\n');
    const writer = new Writer(root, { check: false });
    const files = [file('gen/old.ts', 'new\n'), file('gen/client/operations/a.ts', 'a\n'), file('gen/client/b.ts', 'b\n'), file('gen/docs/c.md', 'c\n')];
    writer.stage(files.slice(0, 2));
    writer.stage(files.slice(2));
    const hidden = listed(join(root, 'gen')).filter((name) => !name.includes('/'));
    // One temporary folder per new folder below an existing one, and one temporary file in the existing one.
    expect(hidden.filter((name) => name.startsWith('.client.') || name.startsWith('.docs.'))).toHaveLength(2);
    expect(hidden.filter((name) => name.startsWith('.old.ts.'))).toHaveLength(1);
    const results = writer.commit(files);
    expect(files.map((f) => results.get(f)!.status)).toEqual(['written', 'written', 'written', 'written']);
    expect(listed(root)).toEqual(['gen', 'gen/client', 'gen/client/b.ts', 'gen/client/operations', 'gen/client/operations/a.ts', 'gen/docs', 'gen/docs/c.md', 'gen/old.ts']);
    expect(readFileSync(join(root, 'gen/client/operations/a.ts'), 'utf8')).toBe('a\n');
    expect(readFileSync(join(root, 'gen/old.ts'), 'utf8')).toBe('new\n');
  });

  it('moves a staged folder in file by file when a folder of that name appeared meanwhile', () => {
    const writer = new Writer(root, { check: false });
    const files = [file('out/a.ts', 'a\n'), file('out/deep/b.ts', 'b\n')];
    writer.stage(files);
    mkdirSync(join(root, 'out/deep'), { recursive: true });
    writeFileSync(join(root, 'out/other.ts'), 'someone else\n');
    writer.commit(files);
    expect(listed(root)).toEqual(['out', 'out/a.ts', 'out/deep', 'out/deep/b.ts', 'out/other.ts']);
    expect(readFileSync(join(root, 'out/deep/b.ts'), 'utf8')).toBe('b\n');
  });

  it('refuses a path an earlier stage already had', () => {
    const writer = new Writer(root, { check: false });
    writer.stage([file('a.ts', 'x')]);
    expect(() => writer.stage([file('./a.ts', 'y')])).toThrow(/share the path/);
    writer.discard();
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses to commit a file it never staged, and then keeps nothing', () => {
    const writer = new Writer(root, { check: false });
    writer.stage([file('a.ts', 'x')]);
    expect(() => writer.commit([file('b.ts', 'y')])).toThrow(/never staged/);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('removeObsolete', () => {
  const generated = (name: string) => `// ${BANNER_MARK} "Fixture 1.0.0". Do not edit this file:\n// ${name}\n`;

  it('lists, in check mode, generated files no target produced, and touches nothing', async () => {
    mkdirSync(join(root, 'gen/docs/reference'), { recursive: true });
    writeFileSync(join(root, 'gen/docs/reference/gone.md'), generated('gone'));
    writeFileSync(join(root, 'gen/kept.ts'), generated('kept'));
    const results = await removeObsolete(root, 'gen', [file('gen/kept.ts', generated('kept'))], { check: true });
    expect(results).toEqual([{ path: 'gen/docs/reference/gone.md', status: 'obsolete' }]);
    expect(existsSync(join(root, 'gen/docs/reference/gone.md'))).toBe(true);
  });

  it('deletes them otherwise, but never a file without the banner', async () => {
    mkdirSync(join(root, 'gen'), { recursive: true });
    writeFileSync(join(root, 'gen/gone.ts'), generated('gone'));
    writeFileSync(join(root, 'gen/notes.md'), 'written by a person\n');
    const results = await removeObsolete(root, 'gen', [], { check: false });
    expect(results).toEqual([{ path: 'gen/gone.ts', status: 'removed' }]);
    expect(existsSync(join(root, 'gen/gone.ts'))).toBe(false);
    expect(readFileSync(join(root, 'gen/notes.md'), 'utf8')).toBe('written by a person\n');
  });
});
