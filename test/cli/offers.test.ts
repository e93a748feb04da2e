import { QueryTypes } from 'sequelize';
import { useTestCore } from '../support/context';
import { json, premium } from '../support/cli';

// Runs the built CLI as child processes.
jest.setTimeout(60_000);

const getCore = useTestCore();

const offerRows = () =>
  getCore().sequelize.query<{ code: string }>('SELECT code FROM offers', { type: QueryTypes.SELECT });

describe('premium offers', () => {
  it('adds, lists, shows and disables an offer, with --json', async () => {
    const added = await premium([
      'offers',
      'add',
      'diwali20',
      '--percent',
      '20',
      '--plans',
      'Monthly,Yearly',
      '--max-redemptions',
      '100',
      '--ends',
      '2099-11-15',
      '--json',
    ]);
    expect(added.code).toBe(0);
    expect(json(added)).toMatchObject({
      code: 'DIWALI20',
      percentOff: 20,
      amountOffPaise: null,
      planCodes: ['Monthly', 'Yearly'],
      maxRedemptions: 100,
      redemptions: 0,
      status: 'active',
      // The day typed is REPORT_TIMEZONE's (India's by default), to its end; the JSON is UTC.
      endsAt: '2099-11-15T18:30:00.000Z',
    });
    const shown = await premium(['offers', 'show', 'DIWALI20']);
    expect(shown.stdout).toMatch(/now to 2099-11-16 00:00 IST/);

    const listed = await premium(['offers', 'list']);
    expect(listed.stdout).toMatch(/DIWALI20\s+20% off\s+Monthly, Yearly\s+0 of 100\s+0\.00 INR/);

    const disabled = await premium(['offers', 'disable', 'Diwali20', '--json']);
    expect(json(disabled)).toMatchObject({ code: 'DIWALI20', status: 'disabled' });
    const again = await premium(['offers', 'disable', 'DIWALI20']);
    expect([again.code, again.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(again.stderr).toMatch(/disabled already/);
  });

  it.each([
    [['offers', 'add', 'TENOFF'], /either a percentage or an amount/],
    [['offers', 'add', 'TENOFF', '--percent', '10', '--amount', '50'], /cannot be used with/],
    [['offers', 'add', 'TENOFF', '--percent', '120'], /1 to 100/],
    [['offers', 'add', 'TENOFF', '--amount', '0.5'], /at least 1/],
    [['offers', 'add', 'TENOFF', '--amount', '50', '--max-discount', '30'], /cannot be used with/],
    [['offers', 'add', 'TENOFF', '--max-discount', '30'], /either a percentage or an amount/],
    [['offers', 'add', 'TENOFF', '--percent', '10', '--max-discount', '0.5'], /at least 1/],
    [['offers', 'add', 'TEN', '--percent', '10'], /not valid/],
    [['offers', 'add', 'TENOFF', '--percent', '10', '--plans', 'Platinum'], /no plan Platinum/],
    [['offers', 'show', 'NOSUCH'], /no offer NOSUCH/],
    [['offers', 'add', 'TENOFF', '--percent', '10', '--ends', '2020-01-01'], /has ended already/],
    [['offers', 'add', 'TENOFF', '--percent', '10', '--ends', '2099-02-30'], /expected a day or a time/],
  ])('refuses %j with one line and a non-zero exit, writing nothing', async (args, message) => {
    const run = await premium(args);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(await offerRows()).toEqual([]);
  });

  it('adds a percentage off up to an amount, shown beside the percentage', async () => {
    const added = await premium(['offers', 'add', 'upto100', '--percent', '20', '--max-discount', '100']);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/Discount +20% off, up to 100\.00 INR/);
    expect(json(await premium(['offers', 'show', 'UPTO100', '--json']))).toMatchObject({
      percentOff: 20,
      maxDiscountPaise: 10_000,
    });
  });

  it('refuses a code that exists, keeping the first offer', async () => {
    expect((await premium(['offers', 'add', 'WELCOME', '--amount', '50'])).code).toBe(0);
    const again = await premium(['offers', 'add', 'welcome', '--percent', '5']);
    expect([again.code, again.stderr.trim()]).toEqual([
      1,
      'error: an offer WELCOME exists already (OFFER_EXISTS)',
    ]);
    expect(json(await premium(['offers', 'show', 'WELCOME', '--json']))).toMatchObject({
      amountOffPaise: 5_000,
    });
  });
});
