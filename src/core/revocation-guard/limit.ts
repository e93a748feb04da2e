/** Without MAX_REVOKES_PER_HOUR: 5 % of the records with premium now, and never fewer than 100. */
export function defaultRevokeLimit(activeRecords: number): number {
  return Math.max(100, Math.ceil(activeRecords * 0.05));
}
