/**
 * A level-triggered wake-up call: `wait()` returns when `notify()` is called or the timeout passes, and
 * a `notify()` that came while nobody waited makes the next `wait()` return at once, so no
 * notification is lost between two waits.
 */
export class Wakeup {
  private pending = false;
  private wakeWaiter: (() => void) | null = null;

  notify(): void {
    this.pending = true;
    this.wakeWaiter?.();
  }

  async wait(timeoutMs: number): Promise<void> {
    if (!this.pending) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.wakeWaiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeWaiter = null;
    }
    this.pending = false;
  }
}
