import { addOffer } from '../../../src/core/offers/manage-offers';
import { priceWithOffer } from '../../../src/core/offers/offer-price';
import { useTestCore } from '../../support/context';
import { createUser } from '../../support/fixtures';

const getCore = useTestCore();

describe('the price with an offer', () => {
  const quote = async (code: string, planCode = 'Monthly') =>
    priceWithOffer(getCore().sequelize, {
      code,
      planCode,
      listPricePaise: 19_900,
      buyerUserId: (await createUser()).id,
      holdMinutes: 30,
      ip: '203.0.113.7',
    });

  it('takes the offer off the list price, whatever the case the code is typed in', async () => {
    await addOffer(getCore().sequelize, { code: 'DIWALI20', percentOff: 20, actor: 'test' });
    expect(await quote(' diwali20 ')).toMatchObject({
      code: 'DIWALI20',
      listPricePaise: 19_900,
      discountPaise: 3_980,
      amountPaise: 15_920,
    });
  });

  it('leaves at least ₹1 to pay', async () => {
    await addOffer(getCore().sequelize, { code: 'ALLOFF', amountOff: 500, actor: 'test' });
    expect(await quote('ALLOFF')).toMatchObject({ discountPaise: 19_800, amountPaise: 100 });
  });

  it('answers one refusal for a code that does not exist and one for another plan', async () => {
    await addOffer(getCore().sequelize, {
      code: 'YEARLY10',
      percentOff: 10,
      planCodes: ['Yearly'],
      actor: 'test',
    });
    await expect(quote('NOSUCHCODE')).rejects.toMatchObject({ code: 'OFFER_INVALID' });
    await expect(quote('YEARLY10')).rejects.toMatchObject({ code: 'OFFER_INVALID' });
  });
});
