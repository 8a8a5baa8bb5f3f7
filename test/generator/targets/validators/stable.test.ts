/**
 * Generated validators are reviewed as diffs: one spec edit must change only
 * the code it concerns. Each case generates validators for a document, adds
 * one optional property to one schema (in the middle of its properties, so
 * that anything numbered after it would shift), regenerates, and diffs the two
 * outputs line by line.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import { renderValidators } from '../../../../generator/targets/validators/index.js';
import { TEMPLATES_DIR } from '../../../fixtures/validators/load.js';
import { repoRoot } from '../../../support/process.js';

const artifacts = join(repoRoot, 'test/artifacts');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A scratch copy of a spec folder under test/artifacts, with `edit` applied to one of its files. */
function editedCopy(folder: string, file: string, edit: (text: string) => string): string {
  mkdirSync(artifacts, { recursive: true });
  const dir = mkdtempSync(join(artifacts, 'stable-'));
  made.push(dir);
  cpSync(join(repoRoot, folder), dir, { recursive: true });
  const path = join(dir, file);
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
  return dir;
}

async function validatorsOf(specPath: string): Promise<string> {
  const model = buildModel(await loadSpec(specPath, repoRoot));
  return renderValidators(model, TEMPLATES_DIR, 'npm run generate').validators;
}

/** The module-level declaration (function or constant) each line of `source` belongs to. */
function owners(source: string): string[] {
  let owner = '(imports)';
  return source.split('\n').map((line) => {
    const found = /^(?:export )?(?:const|function|type) ([A-Za-z_$][\w$]*)/.exec(line);
    if (found !== null) owner = found[1]!;
    return owner;
  });
}

/** Lines removed or added between two outputs, and the declarations they belong to. */
function changes(before: string, after: string): { lines: number; owners: Set<string> } {
  const ownersBefore = owners(before);
  const ownersAfter = owners(after);
  const touched = new Set<string>();
  let lines = 0;
  let lineBefore = 0;
  let lineAfter = 0;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.removed) {
      for (let i = 0; i < count; i++) touched.add(ownersBefore[lineBefore + i]!);
      lineBefore += count;
      lines += count;
    } else if (part.added) {
      for (let i = 0; i < count; i++) touched.add(ownersAfter[lineAfter + i]!);
      lineAfter += count;
      lines += count;
    } else {
      lineBefore += count;
      lineAfter += count;
    }
  }
  return { lines, owners: touched };
}

/** Five lines of YAML: an optional string property (with a length limit, or an example). */
const PRONOUNS = (indent: string, limited: boolean): string =>
  ['pronouns:', '  type: string', '  description: As the user writes them.', limited ? '  maxLength: 60' : '  x-feature-level: 400', '  examples: [she/her]'].map((line) => indent + line + '\n').join('');

describe('one property added to one schema', () => {
  it('changes only that schema\'s check, predicate and key set (fixture document)', async () => {
    const spec = 'test/fixtures/stable-names/openapi.yaml';
    const before = await validatorsOf(spec);
    const dir = editedCopy('test/fixtures/stable-names', 'openapi.yaml', (text) => text.replace('        timezone: {type: string}\n', `${PRONOUNS('        ', true)}        timezone: {type: string}\n`));
    const after = await validatorsOf(join(dir, 'openapi.yaml'));
    const { lines, owners: touched } = changes(before, after);
    expect(lines).toBeGreaterThan(0);
    expect(lines).toBeLessThanOrEqual(25);
    expect([...touched].sort()).toEqual(['USER_KEYS', 'checkUser', 'matchesUser']);
    expect(after).toContain('const pronouns = record["pronouns"];');
  });

  it('changes about 25 lines of our own validators for `pronouns` on OwnUser', async () => {
    const before = await validatorsOf('spec/openapi.yaml');
    const dir = editedCopy('spec', 'components/schemas/OwnUser.yaml', (text) =>
      text.replace('properties:\n  user_id:\n', `properties:\n${PRONOUNS('  ', false)}  user_id:\n`),
    );
    const after = await validatorsOf(join(dir, 'openapi.yaml'));
    const { lines, owners: touched } = changes(before, after);
    // OwnUser's own check and predicate, and getOwnUser's response, whose `allOf` the model merges into one object:
    // a key set line and an optional property's two predicate lines and five check lines, for each (decision 0030).
    expect(lines).toBeLessThanOrEqual(25);
    expect([...touched].sort()).toEqual(['GET_OWN_USER_RESPONSE_KEYS', 'OWN_USER_KEYS', 'checkGetOwnUserResponse', 'checkOwnUser', 'matchesGetOwnUserResponse', 'matchesOwnUser']);
  });
});
