import { OutboxEvent } from '../../../src/core/models';
import { useTestCore } from '../../support/context';

useTestCore();

const EVENT_ID = '00000000-0000-4000-8000-0000000000c1';
const append = (payload: object) =>
  OutboxEvent.create({
    eventId: EVENT_ID,
    type: 'USER_PREMIUM_ADD',
    aggregateKey: 'user:1',
    payload: payload as never,
  });

describe('the outbox', () => {
  it.each([
    ['without its eventId', { type: 'USER_PREMIUM_ADD' }],
    ['with another eventId', { eventId: '00000000-0000-4000-8000-0000000000c2', type: 'USER_PREMIUM_ADD' }],
    ['with another type', { eventId: EVENT_ID, type: 'USER_PREMIUM_REMOVE' }],
    ['that is not an object', ['USER_PREMIUM_ADD']],
  ])('refuses a pending event whose payload is %s: the bot could not use it', async (_, payload) => {
    await expect(append(payload)).rejects.toMatchObject({
      parent: { code: '23514', constraint: 'outbox_payload_well_formed' },
    });
    expect(await OutboxEvent.count()).toBe(0);
  });

  it('takes one whose payload carries its own eventId and type', async () => {
    await append({ eventId: EVENT_ID, type: 'USER_PREMIUM_ADD', version: 1 });
    expect(await OutboxEvent.count()).toBe(1);
  });
});
