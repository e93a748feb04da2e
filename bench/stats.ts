export interface Spread {
  median: number;
  min: number;
  max: number;
}

function ascending(values: readonly number[]): number[] {
  if (values.length === 0) throw new Error('no values to summarise');
  return [...values].sort((a, b) => a - b);
}

/** The value at quantile `q` (0..1) by the nearest-rank method. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = ascending(values);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export function spread(values: readonly number[]): Spread {
  const sorted = ascending(values);
  const middle = sorted.length / 2;
  const median =
    sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}
