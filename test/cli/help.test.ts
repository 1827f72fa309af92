import { runCli } from './support';

/** Each command and the options its usage must explain. */
const OPTIONS: Record<string, string[]> = {
  audit: ['--format', '--output', '--fail-on', '--rule', '--severity', '--argocd-version', '--repo-root', '--config', '--max-file-size', '--exclude', '--baseline',
    '--write-baseline', '--fail-on-unreadable', '--verbose', '--debug', '--help'],
  simulate: ['--app', '--desired', '--live', '--format', '--max-file-size', '--debug', '--help'],
  new: ['--project', '--hpa', '--migration', '--external-secret', '--dir', '--debug', '--help'],
};
const COMMANDS = Object.keys(OPTIONS);

/** The usage of `command`, as `safe-argocd help <command>` prints it. */
async function usageOf(command: string): Promise<string> {
  return (await runCli(['help', command])).stdout;
}

describe('safe-argocd help', () => {
  describe.each(COMMANDS)('%s', (command) => {
    test.each([
      [[command, '--help']],
      [[command, '-h']],
      [['help', command]],
      [['--help', command]],
    ])('%j prints the usage of the command on stdout and exits 0', async (args) => {
      // WHEN help is asked for in one of its spellings
      const run = await runCli(args);

      // THEN the command's own usage is on stdout, nothing on stderr, exit 0
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(new RegExp(`^usage: safe-argocd ${command} `));
      expect(run.stdout).toBe(await usageOf(command));
      expect(run.written.size).toBe(0);
    });

    test('the usage explains every option on one line, and the exit codes', async () => {
      // WHEN the usage is printed
      const usage = await usageOf(command);

      // THEN each option has a line of its own with an explanation after it
      for (const option of OPTIONS[command]) {
        expect(usage).toMatch(new RegExp(`^ {2}(-h, )?${option}( \\S+)? {2,}\\w[^\\n]+$`, 'm'));
      }
      // AND the exit codes are listed
      expect(usage).toMatch(/^exit codes:\n {2}0 {2}\S/m);
      expect(usage).toMatch(/^ {2}2 {2}\S/m);
    });

    test('the usage is the command\'s own: no other command\'s synopsis', async () => {
      const usage = await usageOf(command);
      for (const other of COMMANDS.filter((c) => c !== command)) {
        expect(usage).not.toContain(`safe-argocd ${other} `);
      }
    });

    test('an unknown option: a one-line reason and the command\'s usage on stderr, exit 2', async () => {
      // WHEN the command gets an option it does not have
      const run = await runCli(command === 'new' ? ['new', 'orders', '--bogus'] : [command, '--bogus']);

      // THEN one line says which option and for which command, then the command's usage follows
      const [first, ...rest] = run.stderr.split('\n');
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(first).toBe(`safe-argocd ${command}: [SAFE-103] --bogus is not an option of safe-argocd ${command}. Fix: use an option listed below.`);
      expect(rest.join('\n')).toBe(await usageOf(command));
    });
  });

  test.each([
    ['audit with a bad --format and an unknown option', ['audit', '--format', 'xml', '--bogus', '--help']],
    ['audit with --help as the value of --format', ['audit', '--format', '--help']],
    ['simulate without --app or --desired', ['simulate', '-h']],
    ['simulate with an unreadable --app', ['simulate', '--app', 'no-such-file.yaml', '--desired', 'x.yaml', '--help']],
    ['new with two service names', ['new', 'orders', 'billing', '--help']],
    ['new with a bad --hpa', ['new', 'orders', '--hpa', '0:3', '-h']],
  ])('a help flag wins over wrong arguments: %s', async (_name, args) => {
    // WHEN help is asked for among arguments that would fail
    const run = await runCli(args);

    // THEN the usage is printed and nothing else happens
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(await usageOf(args[0]));
    expect(run.written.size).toBe(0);
  });

  test('after "--", --help is an argument, not a help flag', async () => {
    // WHEN --help follows the end of the options
    const run = await runCli(['audit', '--format', 'json', '--', '--help']);

    // THEN it is a path to audit, which does not exist
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).problems).toEqual([{ file: '--help', message: 'does not exist or cannot be resolved' }]);
  });

  test.each([[['--help']], [['-h']], [['help']], [['help', 'help']]])('%j prints the short overview on stdout and exits 0', async (args) => {
    // WHEN help is asked for without a command
    const run = await runCli(args);

    // THEN the overview lists every command in a few lines, and points to each command's help
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^usage: safe-argocd <command>/);
    for (const command of COMMANDS) {
      expect(run.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    }
    expect(run.stdout).toContain('safe-argocd help <command>');
    expect(run.stdout).not.toContain('--fail-on');
    expect(run.stdout.split('\n').length).toBeLessThan(20);
  });

  test('no arguments: the overview on stderr, nothing on stdout, exit 2', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe((await runCli(['help'])).stdout);
  });

  test('only the global --debug is still no command: exit 2', async () => {
    const run = await runCli(['--debug']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^usage: safe-argocd <command>/);
  });

  test.each([
    ['an unknown command', ['frobnicate'], 'safe-argocd: [SAFE-103] "frobnicate" is not a command. Fix: use audit, simulate, new.'],
    ['an unknown command, even with --help', ['frobnicate', '--help'], 'safe-argocd: [SAFE-103] "frobnicate" is not a command. Fix: use audit, simulate, new.'],
    ['an unknown top-level option', ['--bogus'], 'safe-argocd: [SAFE-103] --bogus is not an option of safe-argocd. Fix: use audit, simulate, new.'],
    ['help for an unknown command', ['help', 'frobnicate'], 'safe-argocd help: [SAFE-103] "frobnicate" is not a command. Fix: use audit, simulate, new.'],
  ])('%s: a one-line reason and the overview on stderr, exit 2', async (_name, args, reason) => {
    const run = await runCli(args);
    const [first, ...rest] = run.stderr.split('\n');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(first).toBe(reason);
    expect(rest.join('\n')).toBe((await runCli(['help'])).stdout);
  });
});
