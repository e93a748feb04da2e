import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Option } from 'commander';
import { text } from './arguments';

/** Options shared by the commands that change premium. */

export function reasonOption(): Option {
  return new Option('--reason <text>', 'why, for the ledger and the bot')
    .argParser(text)
    .makeOptionMandatory();
}

export function actorOption(): Option {
  return new Option('--actor <name>', 'who is doing this, for the ledger')
    .argParser(text)
    .default(os.userInfo().username, 'the OS user');
}

export function idempotencyKeyOption(): Option {
  return new Option(
    '--idempotency-key <key>',
    'the key a previous attempt printed: repeating it changes nothing twice',
  )
    .argParser(text)
    .default(randomUUID(), 'a new uuid');
}

export interface ChangeOptions {
  reason: string;
  actor: string;
  idempotencyKey: string;
}
