import { AppError } from '../errors';
import type { Features, FeatureValue } from './types';

/**
 * A tier's features as text and back, without the database: the CLI parses `--feature key=value` before
 * any command runs (so `premium --help` loads no database library), and the console's routes read the
 * same `key=value` lines by the same rule.
 */

const FEATURE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const MAX_FEATURES = 100;
const MAX_TEXT = 200;

/**
 * A feature written `key=value`: the value is a number when it reads as one, `true`/`false` a switch,
 * anything else a string (`--feature music=true --feature queue=500 --feature quality=high`).
 */
export function parseFeature(text: string): [string, FeatureValue] {
  const at = text.indexOf('=');
  if (at < 1) throw AppError.validation('INVALID_FEATURE', `a feature is key=value, not "${text}"`);
  const key = text.slice(0, at);
  const raw = text.slice(at + 1);
  assertFeatureKey(key);
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  if (raw.trim() !== '' && Number.isFinite(Number(raw))) return [key, Number(raw)];
  return [key, raw];
}

/** Features as `key=value` words, the way `parseFeature` reads them back; a text that would not is quoted. */
export function featureText(features: Features): string {
  return Object.entries(features)
    .map(([key, value]) => {
      if (typeof value !== 'string') return `${key}=${String(value)}`;
      const plain = value !== '' && !/\s|"/.test(value) && parseFeature(`${key}=${value}`)[1] === value;
      return `${key}=${plain ? value : JSON.stringify(value)}`;
    })
    .join(' ');
}

/** Features a tier may hold: at most MAX_FEATURES, each a switch, a finite number or a short text. */
export function checkedFeatures(features: Features): Features {
  const entries = Object.entries(features);
  if (entries.length > MAX_FEATURES) {
    throw AppError.validation('TOO_MANY_FEATURES', `a tier has at most ${MAX_FEATURES} features`);
  }
  for (const [key, value] of entries) {
    assertFeatureKey(key);
    const ok =
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && value.length <= MAX_TEXT);
    if (!ok) {
      throw AppError.validation(
        'INVALID_FEATURE',
        `feature "${key}" must be true/false, a number or a text of at most ${MAX_TEXT} characters`,
      );
    }
  }
  return features;
}

export function assertFeatureKey(key: string): void {
  if (!FEATURE_KEY.test(key)) {
    throw AppError.validation(
      'INVALID_FEATURE',
      `a feature key is 1 to 64 letters, digits, dots, dashes or underscores, not "${key}"`,
    );
  }
}
