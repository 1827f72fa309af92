import { describe, ErrorCodeValue } from '../private/errors';

/** How every line the CLI prints about an error starts: `safe-argocd` or `safe-argocd <command>`. */
export function prefix(command?: string): string {
  return command === undefined ? 'safe-argocd' : `safe-argocd ${command}`;
}

/** One error: `safe-argocd <command>: [SAFE-xxx] <what>. Fix: <fix>`, and a newline. */
export function errorLine(command: string | undefined, code: ErrorCodeValue, what: string, fix: string): string {
  return `${prefix(command)}: [${code}] ${what.replace(/\.$/, '')}. Fix: ${fix.replace(/\.$/, '')}.\n`;
}

/** What a flag was given and what it needed, in the library's words for a bad value: `--format is "xml"; it must be ...`. */
export function badFlag(flag: string, value: unknown, allowed: string): string {
  return `${flag} ${describe(value)} ${allowed}`;
}

/** A `util.parseArgs` error of `command` as what went wrong and how to fix it, on one line. */
export function parseArgsError(command: string, e: unknown): { what: string; fix: string } {
  const error = e as { code?: unknown; message?: unknown };
  const message = String(error?.message ?? e);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const flag = quoted.split(' ')[0];
  switch (error?.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return { what: `${flag} is not an option of ${prefix(command)}`, fix: 'use an option listed below' };
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return message.includes('does not take an argument')
        ? { what: `${flag} takes no value`, fix: `write ${flag} alone` }
        : { what: `${flag} expects a value`, fix: `write ${flag} <value>, or ${flag}=<value> for a value that starts with "-"` };
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return { what: `unexpected argument ${JSON.stringify(quoted)}`, fix: 'give each file with its option, as listed below' };
    default:
      return { what: message.split('\n')[0], fix: 'see the usage below' };
  }
}
