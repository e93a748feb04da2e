import { portIsFree } from './probe';

/** A port the launcher listens on (or a child of it does), and the setting that chooses it. */
export interface PortSetting {
  setting: string;
  port: number;
  host: string;
}

/** Ports tried above a busy one before giving up on a suggestion. */
const SEARCH = 100;

/**
 * Null when every port is free; else one line naming all the busy ones at once, and a free port for each
 * that no other setting uses and no other suggestion takes.
 */
export async function busyPortsProblem(settings: PortSetting[]): Promise<string | null> {
  const busy: PortSetting[] = [];
  for (const candidate of settings) {
    if (!(await portIsFree(candidate.port, candidate.host))) busy.push(candidate);
  }
  if (busy.length === 0) return null;
  const taken = new Set(settings.map(({ port }) => port));
  const suggestions: string[] = [];
  for (const { setting, port, host } of busy) {
    const free = await freeAbove(port, host, taken);
    if (free === null) continue;
    taken.add(free);
    suggestions.push(`${setting}=${free}`);
  }
  const named = busy.map(({ setting, port }) => `${port} (${setting})`).join(', ');
  const advice =
    suggestions.length > 0
      ? `start with free ones, e.g. ${suggestions.join(' ')} npm run dev`
      : `set ${busy.map(({ setting }) => setting).join(', ')} to free ports`;
  return `${busy.length === 1 ? 'port' : 'ports'} in use: ${named}; ${advice}`;
}

async function freeAbove(port: number, host: string, taken: Set<number>): Promise<number | null> {
  for (let next = port + 1; next <= Math.min(port + SEARCH, 65_535); next++) {
    if (!taken.has(next) && (await portIsFree(next, host))) return next;
  }
  return null;
}
