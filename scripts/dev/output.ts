import { prettyFactory } from 'pino-pretty';

interface PinoLine {
  msg?: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

/** Fastify logs every request twice (arrival, completion): keep one line, at completion, saying both. */
function oneLinePerRequest(line: string, arrived: Map<string, string>): string | null {
  let entry: PinoLine;
  try {
    entry = JSON.parse(line) as PinoLine;
  } catch {
    return line;
  }
  const { msg, reqId = '', req, res, responseTime = 0, ...rest } = entry;
  if (msg === 'incoming request' && req) {
    arrived.set(reqId, `${req.method} ${req.url}`);
    return null;
  }
  if (msg === 'request completed' && res) {
    const request = arrived.get(reqId) ?? reqId;
    arrived.delete(reqId);
    return JSON.stringify({
      ...rest,
      msg: `${request} → ${res.statusCode} (${Math.round(responseTime)} ms)`,
    });
  }
  return line;
}

const pretty = prettyFactory({
  translateTime: 'SYS:HH:MM:ss',
  ignore: 'pid,hostname,name',
  singleLine: true,
});

/** Prints a child's output under its name, pino's JSON lines made readable. */
export function printer(name: string): (line: string) => void {
  const prefix = `[${name.padEnd(7)}]`;
  const arrived = new Map<string, string>();
  return (line) => {
    const text = oneLinePerRequest(line, arrived);
    if (text === null) return;
    for (const part of pretty(text).trimEnd().split('\n')) console.log(`${prefix} ${part}`);
  };
}
