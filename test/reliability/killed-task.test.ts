/**
 * A task of this repository (`npm run example`, `npm test`) whose command a signal kills fails: a synth or a jest run
 * ended by SIGKILL, as the kernel's out-of-memory killer ends one, must not look like a success, here or in CI.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { join } from 'path';
import { tempDir } from '../support/app';

const ROOT = join(__dirname, '..', '..');
const PROJEN = join(ROOT, 'node_modules', 'projen', 'bin', 'projen');

/** Runs `projen <task>` in `dir`, whose tasks.json holds the repository's task settings and `steps` for that task. */
function runTask(dir: string, task: string, steps: unknown[]) {
  const own = JSON.parse(fs.readFileSync(join(ROOT, '.projen', 'tasks.json'), 'utf8')) as Record<string, unknown>;
  fs.mkdirSync(join(dir, '.projen'), { recursive: true });
  // The repository's settings (its shell among them) as they are, with one task of the given steps.
  const { tasks: _, env: __, ...settings } = own;
  fs.writeFileSync(join(dir, '.projen', 'tasks.json'), JSON.stringify({ ...settings, tasks: { [task]: { name: task, steps } } }));
  fs.writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'killed-task', version: '0.0.0' }));
  return spawnSync(process.execPath, [PROJEN, task], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
}

describe('tasks of this repository', () => {
  test('a command a signal kills fails the task, as one that exits 1 does; one that ends well passes', () => {
    // GIVEN the repository's task settings, and commands that end by SIGKILL, by exit 1 and by exit 0
    const kill = `"${process.execPath}" -e "process.kill(process.pid, 'SIGKILL')"`;

    // WHEN each runs as a task
    const killed = runTask(tempDir(), 'killed', [{ exec: kill }]);
    const failed = runTask(tempDir(), 'failed', [{ exec: `"${process.execPath}" -e "process.exit(1)"` }]);
    const passed = runTask(tempDir(), 'passed', [{ exec: `"${process.execPath}" -e "process.exit(0)"` }]);

    // THEN the killed one fails like the failing one, with the task named, and the good one passes
    expect(killed.status).not.toBe(0);
    expect(killed.stderr).toContain('Task "killed" failed');
    expect(failed.status).not.toBe(0);
    expect(passed.status).toBe(0);
  });
});
