import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutputFile } from '../../generator/targets/types.js';
import { writeFiles } from '../../generator/write.js';

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
