import { describe, ErrorCode, ErrorCodeValue } from '../core/errors';

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

/** Whether an error message carries one of the library's codes, `[SAFE-xxx]`. */
export function hasCode(message: string): boolean {
  return /^\[SAFE-\d{3}\]/.test(message);
}

/** The message of anything thrown (an error from another realm, e.g. a VM context, is no `instanceof Error`). */
export function messageOf(e: unknown): string {
  const message = (e as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(e);
}

/**
 * An error a library call threw for a reason it knows (a bad value, an unreadable input), as one line: its
 * own message when it carries a code (with `fix` added when it has none), else `code` and the message.
 */
export function knownError(command: string, e: unknown, code: ErrorCodeValue, fix: string): string {
  const message = messageOf(e);
  if (!hasCode(message)) {
    return errorLine(command, code, message, fix);
  }
  return message.includes('Fix:') ? `${prefix(command)}: ${message.replace(/\.?$/, '.')}\n` : `${prefix(command)}: ${message.replace(/\.$/, '')}. Fix: ${fix.replace(/\.$/, '')}.\n`;
}

/**
 * An error a library call threw, as one block: {@link knownError} when it carries a code, else an
 * unexpected error. The stack trace follows only with `debug`.
 */
export function thrownError(command: string, e: unknown, debug: boolean, fix: string): string {
  if (!hasCode(messageOf(e))) {
    return unexpectedError(command, e, debug);
  }
  return knownError(command, e, ErrorCode.UNEXPECTED, fix) + (debug ? stackOf(e) : '');
}

/**
 * An error nobody expected (a bug, or the environment failing, e.g. a closed pipe): the message and, unless
 * `debug`, how to see the stack trace; with `debug`, the stack trace.
 */
export function unexpectedError(command: string | undefined, e: unknown, debug: boolean): string {
  const head = errorLine(command, ErrorCode.UNEXPECTED, `unexpected error: ${messageOf(e)}`,
    'if the message does not point at your input or environment, report it with the stack trace');
  return head + (debug ? stackOf(e) : '  for the stack trace, run again with --debug (or SAFE_ARGOCD_DEBUG=1)\n');
}

function stackOf(e: unknown): string {
  const stack = (e as { stack?: unknown } | null)?.stack;
  return `${typeof stack === 'string' ? stack : String(e)}\n`;
}
