/**
 * Progress of a long run, on stderr so that stdout stays the result: one line rewritten in place on a
 * terminal, one line per step otherwise (`--progress` into a log file).
 */
export function progressReporter(forced: boolean | undefined): ((line: string) => void) | undefined {
  const stderr = process.stderr;
  if (stderr.isTTY) {
    return (line) => {
      stderr.cursorTo(0);
      stderr.clearLine(1);
      stderr.write(line);
    };
  }
  return forced ? (line) => stderr.write(`${line}\n`) : undefined;
}

/** Ends the in-place line so that what follows starts on a line of its own. */
export function endProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\n');
}
