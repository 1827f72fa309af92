import { mkdirSync } from 'fs';
import { join } from 'path';
import { findRepoRoot } from '../../src/cli/files';
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
