import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Every file under `root`, as a path relative to it with `/`, and its text. */
function sources(root: string): { file: string; text: string }[] {
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8', withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
    .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
}

/** What a refund, a dispute and what reads them must not ask: which kind of purchase a payment was. */
const ASKS_FOR_A_BUNDLE = /slots\s*>\s*1|isBundle\(|bundleOfOrder|bundleOfCharge/;
const KIND_BLIND_AREAS = [
  'refunds',
  'disputes',
  'guard-release',
  'webhooks',
  'reconcile',
  'invoices',
  'payments',
];
/** A subscription's charge grants through its kind as an order's payment does. */
const KIND_BLIND_FILES = ['subscriptions/charges.ts'];

/** Files under core that ask whether a payment bought a bundle, in an area that must leave it to its kind. */
function kindQuestionsOutsideKinds(core: string): string[] {
  return sources(core)
    .filter(({ file }) => KIND_BLIND_AREAS.includes(file.split('/')[0]!) || KIND_BLIND_FILES.includes(file))
    .filter(({ text }) => ASKS_FOR_A_BUNDLE.test(text))
    .map(({ file }) => file);
}

/** Files anywhere under src that decide what a bundle is: only the bundle kind's module may. */
function bundleRulesOutsideTheKind(src: string): string[] {
  return sources(src)
    .filter(({ file }) => file !== 'core/purchase-kinds/bundle.ts')
    .filter(({ text }) => /slots\s*>\s*(1|SLOTS_PER_PURCHASE)\b/.test(text))
    .map(({ file }) => file);
}

/**
 * Pairs of files, one for an order's payment and one for a charge's, that say one thing twice. The two
 * sources of money (payments/sources) are where they differ, each saying it once.
 */
function orderChargePairs(core: string): string[] {
  const files = sources(core)
    .map(({ file }) => file)
    .filter((file) => !file.startsWith('payments/sources/'));
  const twin = (file: string) => file.replace(/(^|\/|-)order([-.])/, '$1charge$2');
  return files.filter((file) => /(^|\/|-)order[-.]/.test(file) && files.includes(twin(file)));
}

/** Files outside the work queue and the outbox relay that claim rows as a queue does. */
function queuesOutsideTheQueue(src: string): string[] {
  const allowed =
    /^core\/jobs\/|^worker\/relay\/|^core\/premium\/expiry-sql\.ts$|^core\/subscriptions\/sql\.ts$/;
  return sources(src)
    .filter(({ file, text }) => !allowed.test(file) && /SKIP LOCKED/.test(text))
    .map(({ file }) => file);
}

const SRC = path.resolve(__dirname, '../../src');

describe('one payment at the centre (docs/payments.md)', () => {
  it('leaves "is this a bundle?" to the purchase kinds in refunds, disputes and what reads them', () => {
    expect(kindQuestionsOutsideKinds(path.join(SRC, 'core'))).toEqual([]);
  });

  it('says what a bundle is in the bundle kind alone; payments and charges grant through the kinds', () => {
    expect(bundleRulesOutsideTheKind(SRC)).toEqual([]);
  });

  it('has no pair of files saying one thing for an order and again for a charge', () => {
    expect(orderChargePairs(path.join(SRC, 'core'))).toEqual([]);
  });

  it('claims queued rows only in the work queue and the outbox relay', () => {
    expect(queuesOutsideTheQueue(SRC)).toEqual([]);
  });
});

describe('the rules above', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-centre-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('catch each thing they forbid, and leave alone what they allow', () => {
    write('core/refunds/take.ts', 'if (order.slots > 1) takeAll();');
    write('core/disputes/stage.ts', "import { isBundle } from '../plans'; isBundle(x);");
    write('core/purchase-kinds/bundle.ts', 'const bundle = plan.slots > 1;');
    write('core/orders/create-order.ts', 'isBundle(plan);');
    write('core/refunds/order-refund.ts', '');
    write('core/refunds/charge-refund.ts', '');
    write('core/disputes/order-dispute.ts', '');
    write('core/orders/locked-order.ts', '');
    write('core/payments/sources/order.ts', '');
    write('core/payments/sources/charge.ts', '');
    write('core/roles/queue.ts', 'SELECT 1 FOR UPDATE SKIP LOCKED');
    write('core/jobs/claims.ts', 'SELECT 1 FOR UPDATE SKIP LOCKED');
    write('core/payments/apply.ts', 'if (isBundle(order)) applyBundle();');
    write('core/subscriptions/charges.ts', 'if (isBundle(subscription)) chargeBundle();');
    write('cli/render.ts', 'plan.slots > SLOTS_PER_PURCHASE');

    expect(kindQuestionsOutsideKinds(path.join(root, 'core'))).toEqual([
      'disputes/stage.ts',
      'payments/apply.ts',
      'refunds/take.ts',
      'subscriptions/charges.ts',
    ]);
    expect(bundleRulesOutsideTheKind(root)).toEqual(['cli/render.ts', 'core/refunds/take.ts']);
    expect(orderChargePairs(path.join(root, 'core'))).toEqual(['refunds/order-refund.ts']);
    expect(queuesOutsideTheQueue(root)).toEqual(['core/roles/queue.ts']);
  });
});
