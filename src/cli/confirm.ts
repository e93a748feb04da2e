import readline from 'node:readline/promises';
import { AppError } from '../core/errors';
import { UsageError } from './errors';
import { printable } from './format';

/**
 * Asks before premium is taken away. Without `--yes` there must be someone at a terminal to ask: a
 * script that forgot `--yes` is refused rather than left waiting or, worse, assumed to agree.
 */
export async function confirm(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  requireTerminal();
  const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(printable(`${question} Go ahead? [y/N] `));
    if (!/^(y|yes)$/i.test(answer.trim())) {
      throw AppError.validation('NOT_CONFIRMED', 'not confirmed; nothing was changed');
    }
  } finally {
    prompt.close();
  }
}

/** Refuses at once, before anything is looked up, when there is no one at a terminal to ask. */
export function requireTerminal(): void {
  if (!process.stdin.isTTY) {
    throw new UsageError('stdin is not a terminal, so nothing was asked or changed; add --yes to go ahead');
  }
}
