import { addEndpoint, isPrivateAddress, safeAddress } from '../../../src/core/outgoing-webhooks';
import { useTestCore } from '../../support/context';

const core = useTestCore();
const db = () => core().sequelize;
const LOCAL = { httpsOnly: false, allowPrivate: true };

describe("the webhooks' address rules", () => {
  it('takes loopback, private, link-local, CGNAT and ULA addresses for private, and no public one', () => {
    for (const address of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    for (const address of ['8.8.8.8', '2606:4700::1111', '172.32.0.1'])
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
  });

  it('refuses a host that resolves to a private address unless allowed', async () => {
    await expect(safeAddress('localhost', { allowPrivate: false })).rejects.toThrow(
      /^localhost resolves to (127\.0\.0\.1|::1)/,
    );
    await expect(safeAddress('[::1]', { allowPrivate: false })).rejects.toThrow('[::1] resolves to ::1');
    await expect(safeAddress('127.0.0.1', { allowPrivate: true })).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('takes only an https URL in production, naming the rule', async () => {
    const production = { httpsOnly: true, allowPrivate: false };
    await expect(
      addEndpoint(db(), { url: 'http://hooks.example.com', actor: 'test' }, production),
    ).rejects.toThrow('url: must be https in production');
    await expect(addEndpoint(db(), { url: 'not a url', actor: 'test' }, LOCAL)).rejects.toThrow(
      'url: must be an absolute URL',
    );
    await expect(
      addEndpoint(db(), { url: 'https://hooks.example.com', events: ['sales'], actor: 'test' }, production),
    ).rejects.toThrow('events: sales unknown');
  });
});
