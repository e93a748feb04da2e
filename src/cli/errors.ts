import { CommanderError } from 'commander';
import { ConfigError } from '../core/config/config-error';
import { isAppError } from '../core/errors';
import { printable } from './format';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A command used in a way it refuses (as commander's own usage errors do) before it changed anything. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Requires sequelize here, not at start: a command that reached the database has loaded it already. */
function isConnectionError(error: unknown): error is Error {
  const { ConnectionError } = require('sequelize') as typeof import('sequelize');
  return error instanceof ConnectionError;
}

/**
 * The one place a failure becomes an exit code and a message on stderr: one line, no stack trace unless
 * `--verbose`. Commander has already printed its own usage errors (with the command's help).
 */
export function reportError(error: unknown, verbose: boolean): number {
  if (error instanceof CommanderError) return error.exitCode === EXIT_OK ? EXIT_OK : EXIT_USAGE;
  const write = (message: string) => process.stderr.write(`${printable(message)}\n`);
  if (error instanceof UsageError) {
    write(`error: ${error.message}`);
    return EXIT_USAGE;
  }
  if (error instanceof ConfigError) {
    write(error.message);
    return EXIT_FAILURE;
  }
  if (isAppError(error)) write(`error: ${error.message} (${error.code})`);
  else if (isConnectionError(error)) write(`error: the database could not be reached: ${error.message}`);
  else write(`error: ${error instanceof Error ? error.message : String(error)}`);
  if (verbose && error instanceof Error && error.stack) write(error.stack);
  return EXIT_FAILURE;
}
