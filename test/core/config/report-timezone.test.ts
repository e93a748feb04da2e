import { Client } from 'pg';
import { loadConfig } from '../../../src/core/config';
import { problemsOf } from '../../support/config-problems';
import { workerDatabaseUrl } from '../../support/context';

/** The wall-clock time at `instant` in `zone`, as PostgreSQL reads the zone. */
async function postgresLocalTime(zone: string, instant: string): Promise<string> {
  const client = new Client({ connectionString: workerDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ local: string }>(
      `SELECT to_char($1::timestamptz AT TIME ZONE $2, 'YYYY-MM-DD HH24:MI') AS local`,
      [instant, zone],
    );
    return rows[0]!.local;
  } finally {
    await client.end();
  }
}

/** The same, as Node reads it. */
function nodeLocalTime(zone: string, instant: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    dateStyle: 'short',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(new Date(instant));
}

const SUMMER = '2026-07-01T12:00:00Z';

describe('REPORT_TIMEZONE', () => {
  it.each(['IST', 'BST', 'CET'])(
    'refuses the abbreviation %s, which Node and PostgreSQL read as different zones',
    async (abbreviation) => {
      expect(nodeLocalTime(abbreviation, SUMMER)).not.toBe(await postgresLocalTime(abbreviation, SUMMER));

      expect(problemsOf({ NODE_ENV: 'test', REPORT_TIMEZONE: abbreviation, PORT: 'eighty' })).toEqual([
        expect.stringMatching(/^PORT: /),
        'REPORT_TIMEZONE: is not an IANA time zone name like Asia/Kolkata or UTC (PostgreSQL reads an abbreviation such as IST or BST as a zone of its own)',
      ]);
    },
  );

  it('refuses a name no one knows', () => {
    expect(problemsOf({ NODE_ENV: 'test', REPORT_TIMEZONE: 'Asia/Atlantis' })).toEqual([
      expect.stringMatching(/^REPORT_TIMEZONE: is not an IANA time zone name/),
    ]);
  });

  it.each(['Asia/Kolkata', 'UTC', 'Europe/London', 'America/New_York', 'Etc/GMT+5'])(
    'takes %s, which PostgreSQL reads as Node does',
    async (zone) => {
      expect(loadConfig({ NODE_ENV: 'test', REPORT_TIMEZONE: zone }).reportTimeZone).toBe(zone);
      expect(await postgresLocalTime(zone, SUMMER)).toBe(nodeLocalTime(zone, SUMMER));
    },
  );
});
