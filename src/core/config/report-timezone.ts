/**
 * A zone Node and PostgreSQL read alike: `UTC` or an `Area/Location` name. PostgreSQL reads a name
 * without a slash as one of its abbreviations first (IST is Israel there, BST British summer time,
 * CET a fixed +01:00), where Node takes IST for India, BST for Bangladesh and CET for Brussels.
 */
export function isReportTimeZone(name: string): boolean {
  if (name !== 'UTC' && !name.includes('/')) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
