/** A WHERE clause assembled from optional filters, with `$n` bind parameters in order. */
export class Conditions {
  readonly bind: unknown[] = [];
  private readonly clauses: string[] = [];

  /**
   * `clause` refers to its values as `?`, in order. Nothing is added when `value` (the first) is
   * undefined.
   */
  add(clause: string, value: unknown, ...more: unknown[]): this {
    if (value === undefined) return this;
    let text = clause;
    for (const each of [value, ...more]) {
      this.bind.push(each);
      text = text.replace('?', `$${this.bind.length}`);
    }
    this.clauses.push(text);
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
