/** A WHERE clause assembled from optional filters, with `$n` bind parameters in order. */
export class Conditions {
  readonly bind: unknown[] = [];
  private readonly clauses: string[] = [];

  /** `clause` refers to its value as `?`. Nothing is added when `value` is undefined. */
  add(clause: string, value: unknown): this {
    if (value === undefined) return this;
    this.bind.push(value);
    this.clauses.push(clause.replace('?', `$${this.bind.length}`));
    return this;
  }

  /** The next bind parameter's placeholder, for a value that follows the conditions (a LIMIT). */
  param(value: unknown): string {
    this.bind.push(value);
    return `$${this.bind.length}`;
  }

  toString(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}
