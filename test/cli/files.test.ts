import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { collectFiles, findRepoRoot } from '../../src/cli/files';
import { tempDir } from '../support/app';

describe('findRepoRoot: where audit reads source paths from, when --repo-root is not given', () => {
  const startedIn = process.cwd();
  afterEach(() => process.chdir(startedIn));

  test('the Git work tree that holds the path, wherever the working directory is', () => {
    // GIVEN a repository with a rendered tree deep inside
    const repo = tempDir();
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'deploy', 'dist'), { recursive: true });
    process.chdir(tempDir());
    expect(findRepoRoot(join(repo, 'deploy', 'dist'))).toBe(repo);
  });

  test('outside Git, the working directory when the path lies in it, as a synth run from there takes it', () => {
    // GIVEN an app folder that is no repository, with its dist/
    const app = tempDir();
    mkdirSync(join(app, 'dist'));
    process.chdir(app);
    expect(findRepoRoot('dist')).toBe(process.cwd());
  });

  test('outside Git, the path\'s own folder when the working directory does not hold it', () => {
    const elsewhere = tempDir();
    mkdirSync(join(elsewhere, 'dist'));
    process.chdir(tempDir());
    expect(findRepoRoot(join(elsewhere, 'dist'))).toBe(join(elsewhere, 'dist'));
  });
});

describe('collectFiles: the names it gives', () => {
  test('ASCII names, and names in UTF-8 beside them, as text, in order, each read by its name', () => {
    // GIVEN a folder of plain names and one with a UTF-8 name in a subfolder
    const root = tempDir();
    mkdirSync(join(root, 'apps', 'caf\u00e9'), { recursive: true });
    writeFileSync(join(root, 'apps', 'b.yaml'), 'b: 1\n');
    writeFileSync(join(root, 'apps', 'a.yml'), 'a: 1\n');
    writeFileSync(join(root, 'apps', 'notes.txt'), 'x\n');
    writeFileSync(join(root, 'apps', 'caf\u00e9', 'd\u00e9j\u00e0.yaml'), 'c: 1\n');
    writeFileSync(join(root, 'apps', 'caf\u00e9', 'plain.json'), '{}\n');

    // WHEN collected
    const { files, problems, otherFiles } = collectFiles([root], root, 1048576);

    // THEN every name reads as written, with its content
    expect(problems).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(['apps/a.yml', 'apps/b.yaml', 'apps/caf\u00e9/d\u00e9j\u00e0.yaml', 'apps/caf\u00e9/plain.json']);
    expect(files.map((f) => Buffer.from(f.content).toString('utf8'))).toEqual(['a: 1\n', 'b: 1\n', 'c: 1\n', '{}\n']);
    expect(otherFiles).toEqual(['apps/notes.txt']);
  });

  test('a folder whose name starts with two dots lies inside the root: named relative to it, as any other folder', () => {
    // GIVEN a folder named `..data` (what Kubernetes projects ConfigMap volumes into) beside an ordinary one
    const root = tempDir();
    mkdirSync(join(root, '..data'));
    mkdirSync(join(root, 'apps'));
    writeFileSync(join(root, '..data', 'app.yaml'), 'a: 1\n');
    writeFileSync(join(root, 'apps', 'b.yaml'), 'b: 1\n');

    // WHEN collected
    const { files, problems } = collectFiles([root], root, 1048576);

    // THEN both are named from the root, not the first by its absolute path as if it lay outside
    expect(problems).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(['..data/app.yaml', 'apps/b.yaml']);
    expect(files.map((f) => Buffer.from(f.content).toString('utf8'))).toEqual(['a: 1\n', 'b: 1\n']);
  });
});
