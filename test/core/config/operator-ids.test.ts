import { ConfigError, loadConfig } from '../../../src/core/config';

describe('OPERATOR_PROVIDER_IDS', () => {
  const load = (ids: string) => loadConfig({ NODE_ENV: 'test', OPERATOR_PROVIDER_IDS: ids });

  it('reads comma-separated Discord ids, spaces and repeats aside; unset or empty: no operator', () => {
    expect(load(' 80351110224678912 ,80351110224678913,80351110224678912,').operatorProviderIds).toEqual([
      '80351110224678912',
      '80351110224678913',
    ]);
    expect(load('').operatorProviderIds).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'test' }).operatorProviderIds).toEqual([]);
  });

  it('refuses anything that is not a Discord id, naming it', () => {
    expect(() => load('80351110224678912,sandbox_demo')).toThrow(ConfigError);
    expect(() => load('80351110224678912,sandbox_demo')).toThrow(
      'OPERATOR_PROVIDER_IDS: "sandbox_demo" is not a Discord user id (17 to 20 digits)',
    );
  });
});
