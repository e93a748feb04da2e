type Step = () => Promise<unknown>;

/**
 * What the bench must undo (child processes, its database, its Redis keys), run last-in first-out and
 * once: when the bench ends, fails, or is interrupted.
 */
export class Cleanup {
  private readonly steps: { what: string; step: Step }[] = [];
  private done: Promise<void> | null = null;

  add(what: string, step: Step): void {
    this.steps.push({ what, step });
  }

  run(): Promise<void> {
    this.done ??= this.runSteps();
    return this.done;
  }

  private async runSteps(): Promise<void> {
    for (const { what, step } of this.steps.reverse()) {
      try {
        await step();
      } catch (error) {
        console.error(`cleanup: could not ${what}:`, error);
      }
    }
  }
}
