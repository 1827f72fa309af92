import { execFileSync } from 'child_process';
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { gitRemoteUrl, originUrlInConfig } from '../../src/cli/apps';
import { tempDir } from '../support/app';

/** A Git repository whose `.git/config` is `config` (after the lines `git init` writes). */
function repoWithConfig(config: string): string {
  const root = tempDir();
  execFileSync('git', ['init', '--quiet'], { cwd: root });
  writeFileSync(join(root, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${config}`);
  return root;
}

/** What git itself answers for remote.origin.url, as `gitRemoteUrl` read it before it read the file. */
function gitSays(root: string): string | undefined {
  try {
    const url = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return url.length > 0 ? url : undefined;
  } catch {
    return undefined;
  }
}

describe('the origin remote is read from .git/config as git reads it', () => {
  const plain: Record<string, string> = {
    'one remote': '[remote "origin"]\n\turl = https://git.acme.internal/platform/gitops.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    'scp-like address': '[remote "origin"]\n\turl = git@git.acme.internal:platform/gitops.git\n',
    'another remote first': '[remote "upstream"]\n\turl = https://git.acme.internal/vendor/gitops.git\n[remote "origin"]\n\turl = https://git.acme.internal/platform/gitops.git\n',
    'another remote after': '[remote "origin"]\n\turl = https://git.acme.internal/platform/gitops.git\n[remote "fork"]\n\turl = https://git.acme.internal/someone/gitops.git\n',
    'no origin': '[remote "upstream"]\n\turl = https://git.acme.internal/vendor/gitops.git\n',
    'the last of two urls': '[remote "origin"]\n\turl = https://git.acme.internal/a.git\n\turl = https://git.acme.internal/b.git\n',
    'upper-case section and key': '[Remote "origin"]\n\tURL = https://git.acme.internal/platform/gitops.git\n',
    'subsection is case-sensitive': '[remote "Origin"]\n\turl = https://git.acme.internal/platform/gitops.git\n',
    'pushurl is not url': '[remote "origin"]\n\tpushurl = https://git.acme.internal/push.git\n\turl = https://git.acme.internal/fetch.git\n',
    'comments and blank lines': '# a comment\n\n[remote "origin"] # trailing\n\t; another\n\turl = https://git.acme.internal/platform/gitops.git\n',
    'spaces around the equals sign': '[remote "origin"]\n    url=https://git.acme.internal/platform/gitops.git   \n',
  };
  test.each(Object.entries(plain))('%s: the same answer as git, without git', (_, config) => {
    const root = repoWithConfig(config);
    const read = originUrlInConfig(root);
    expect(read).toBeDefined();
    expect(read!.url).toBe(gitSays(root));
    expect(gitRemoteUrl(root)).toBe(gitSays(root));
  });

  const leftToGit: Record<string, string> = {
    'an inline comment': '[remote "origin"]\n\turl = https://git.acme.internal/platform/gitops.git # old\n',
    'a quoted value': '[remote "origin"]\n\turl = "https://git.acme.internal/platform/gitops.git"\n',
    'a continued line': '[remote "origin"]\n\turl = https://git.acme.internal/\\\nplatform/gitops.git\n',
    'an included file': '[include]\n\tpath = other.config\n[remote "origin"]\n\turl = https://git.acme.internal/platform/gitops.git\n',
    'an old-style section name': '[remote.origin]\n\turl = https://git.acme.internal/platform/gitops.git\n',
    'a key on the header line': '[remote "origin"] url = https://git.acme.internal/platform/gitops.git\n',
  };
  test.each(Object.entries(leftToGit))('%s: left to git, which answers', (_, config) => {
    const root = repoWithConfig(config);
    expect(originUrlInConfig(root)).toBeUndefined();
    expect(gitRemoteUrl(root)).toBe(gitSays(root));
  });

  test('an included file is followed by git', () => {
    const root = repoWithConfig('[include]\n\tpath = other.config\n');
    writeFileSync(join(root, '.git', 'other.config'), '[remote "origin"]\n\turl = https://git.acme.internal/included.git\n');
    expect(gitRemoteUrl(root)).toBe('https://git.acme.internal/included.git');
  });

  test('a worktree, whose .git is a file, is asked of git', () => {
    const main = repoWithConfig('[remote "origin"]\n\turl = https://git.acme.internal/platform/gitops.git\n');
    writeFileSync(join(main, 'README.md'), 'x\n');
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.'], { cwd: main });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'x'], { cwd: main });
    const worktree = join(tempDir(), 'wt');
    execFileSync('git', ['worktree', 'add', '--quiet', worktree], { cwd: main });
    expect(originUrlInConfig(worktree)).toBeUndefined();
    expect(gitRemoteUrl(worktree)).toBe('https://git.acme.internal/platform/gitops.git');
  });

  test('no .git folder: no remote', () => {
    const root = tempDir();
    mkdirSync(join(root, 'sub'));
    expect(originUrlInConfig(root)).toBeUndefined();
  });
});
