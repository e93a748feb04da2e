import { ConfigError, loadConfig } from '../../src/core/config';

/** Every problem loadConfig lists for `env`, or none when it loads. */
export function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
