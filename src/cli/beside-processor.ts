import { isAppError, type AppError } from '../core/errors';
import type { Session } from './session';

/** A stored record with the processor's view of it, or why the processor could not be asked. */
export type BesideProcessor<T, P> = T & {
  processor: P | null;
  processorError: { code: string; message: string } | null;
};

/**
 * Emits the stored record beside what the processor says of it. The record is still worth showing when
 * the processor is down: it is emitted with `processor: null`, and the exit code says it is partial.
 */
export async function emitBesideProcessor<T extends object, P>(
  session: Session,
  details: T,
  ask: () => Promise<P>,
  render: (view: BesideProcessor<T, P>) => string,
): Promise<void> {
  let processor: P | null = null;
  let failure: AppError | null = null;
  try {
    processor = await ask();
  } catch (error) {
    if (!isAppError(error)) throw error;
    failure = error;
  }
  session.emit(
    { ...details, processor, processorError: failure && { code: failure.code, message: failure.message } },
    render,
  );
  if (failure) throw failure;
}
