import { Option, type Command } from 'commander';
import { list, positiveInteger, rupees, typedTime } from '../arguments';
import { typedInstant } from '../../core/local-time';
import { actorOption } from '../options';
import type { Session } from '../session';
import { offerFields, offersTable } from './offers-render';

interface AddOptions {
  percent?: number;
  amount?: number;
  maxDiscount?: number;
  plans?: string[];
  maxRedemptions?: number;
  starts?: string;
  ends?: string;
  firstPurchaseOnly?: boolean;
  actor: string;
}

const offersModule = () => require('../../core/offers') as typeof import('../../core/offers');

/** `premium offers add|list|show|disable`: codes buyers type at checkout. */
export function registerOffers(program: Command, session: Session): void {
  const offers = program
    .command('offers')
    .description('offer codes buyers type at checkout (docs/offers.md)');

  offers
    .command('add <code>')
    .description('add an offer code: a percentage or an amount off, for some plans or all')
    .addOption(
      new Option('--percent <n>', 'percent off, 1 to 100').argParser(positiveInteger).conflicts('amount'),
    )
    .addOption(
      new Option('--amount <INR>', 'this much off (the buyer still pays at least ₹1)').argParser(rupees),
    )
    .addOption(
      new Option('--max-discount <INR>', 'with --percent: at most this much off ("20% off, up to ₹100")')
        .argParser(rupees)
        .conflicts('amount'),
    )
    .option('--plans <codes>', 'only these plans, comma-separated (default: every plan)', list)
    .option('--max-redemptions <n>', 'at most this many orders use it (default: no cap)', positiveInteger)
    .option(
      '--starts <time>',
      'valid from (a day or time in REPORT_TIMEZONE, or with an offset; default: now)',
      typedTime,
    )
    .option(
      '--ends <time>',
      'valid until (a day, to its end, or a time in REPORT_TIMEZONE, or with an offset; default: no end)',
      typedTime,
    )
    .option('--first-purchase-only', 'only for a buyer who never paid before')
    .addOption(actorOption())
    .action(async (code: string, options: AddOptions) => {
      const { reportTimeZone } = session.core().config;
      const read = (typed: string | undefined, edge: 'start' | 'end') =>
        typed === undefined ? null : typedInstant(typed, reportTimeZone, edge);
      const offer = await offersModule().addOffer(session.core().sequelize, {
        code,
        percentOff: options.percent ?? null,
        // `rupees` parsed to paise; the core takes INR.
        amountOff: options.amount === undefined ? null : options.amount / 100,
        maxDiscount: options.maxDiscount === undefined ? null : options.maxDiscount / 100,
        planCodes: options.plans ?? null,
        startsAt: read(options.starts, 'start'),
        endsAt: read(options.ends, 'end'),
        maxRedemptions: options.maxRedemptions ?? null,
        firstPurchaseOnly: options.firstPurchaseOnly ?? false,
        actor: options.actor,
      });
      session.emit(offer, (added) => `Offer added.\n${offerFields(added)}`);
    });

  offers
    .command('list')
    .description('every offer, newest first, with its redemptions and the discount it gave')
    .action(async () => {
      const found = await offersModule().listOffers(
        session.core().sequelize,
        session.core().config.offerHoldMinutes,
      );
      session.emit({ offers: found }, ({ offers: rows }) => offersTable(rows));
    });

  offers
    .command('show <code>')
    .description('one offer and its figures')
    .action(async (code: string) => {
      session.emit(
        await offersModule().showOffer(
          session.core().sequelize,
          code,
          session.core().config.offerHoldMinutes,
        ),
        offerFields,
      );
    });

  offers
    .command('disable <code>')
    .description('stop an offer: no new order may use it; orders that have it keep their price')
    .action(async (code: string) => {
      const offer = await offersModule().disableOffer(
        session.core().sequelize,
        code,
        session.core().config.offerHoldMinutes,
      );
      session.emit(offer, (disabled) => `Offer ${disabled.code} disabled.\n${offerFields(disabled)}`);
    });
}
