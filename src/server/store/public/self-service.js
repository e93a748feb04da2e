/* global document, fetch, URL, setTimeout, StoreSession, PremiumStore, api, element, byId, formatDate, StoreCheckout, say, errorText, messageLine, rupees, holderName, refresh, me */
'use strict';

// Self-service in the store: redeem a gift code, move a server's premium to another server, and the
// order history, with the subscriptions' charges and "Check again" on an unpaid order. A section of the
// dashboard (PremiumStore.addSection): its cards are built inside #self-service, and it uses store.js's
// helpers and its `me` (the dashboard), since classic scripts share one global scope. What an action
// comes to is said beside it: in its form, or in its order's row.

const ORDERS_EVERY_POLLS = 5;

const SKELETON = `
  <section class="card">
    <h2>Redeem a code</h2>
    <form id="redeem">
      <input name="code" placeholder="XXXX-XXXX-XXXX-XXXX" aria-label="Code" autocomplete="off" required />
      <label class="target">Who gets it <select name="target" aria-label="Who gets it"></select></label>
      <button class="primary" type="submit">Redeem</button>
      <p id="redeem-message" class="message" role="status" hidden></p>
    </form>
  </section>
  <section id="transfer-card" class="card" hidden>
    <h2>Move premium to another server</h2>
    <p class="hint">Bought for the wrong server? Move what is left (once a week per server).</p>
    <form id="transfer">
      <label class="target">From <select name="from" aria-label="Move from"></select></label>
      <label class="target">To <select name="to" aria-label="Move to"></select></label>
      <button type="submit">Move</button>
      <p id="transfer-message" class="message" role="status" hidden></p>
    </form>
  </section>
  <section class="card">
    <h2>Your orders</h2>
    <p class="hint">Paid but no premium? "Check again" asks Razorpay about the order.</p>
    <p id="orders-message" class="message" role="status" hidden></p>
    <ul id="orders" class="rows"></ul>
  </section>`;

/** Replaces a select's options, keeping the chosen value when it is still offered. */
function setOptions(select, options) {
  const chosen = select.value;
  select.replaceChildren(
    ...options.map(([label, value]) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      return option;
    }),
  );
  if (options.some(([, value]) => value === chosen)) select.value = chosen;
}

function renderTargets() {
  const servers = me.guilds.map((guild) => [`Server: ${guild.name}`, guild.id]);
  setOptions(byId('redeem').elements.target, [['Myself', ''], ...servers]);
  const premiumServers = me.guilds.filter((guild) => guild.isPremium);
  byId('transfer-card').hidden = premiumServers.length === 0 || me.guilds.length < 2;
  const transfer = byId('transfer').elements;
  setOptions(
    transfer.from,
    premiumServers.map((guild) => [guild.name, guild.id]),
  );
  setOptions(
    transfer.to,
    me.guilds.filter((guild) => guild.id !== transfer.from.value).map((guild) => [guild.name, guild.id]),
  );
}

/** The state the API names as the console does (`partly refunded` included); `created` reads unpaid. */
function orderState(order) {
  if (order.state === 'payment failed') return element('span', 'failed', order.state);
  return order.state === 'created' ? 'unpaid' : order.state;
}

function button(text, className, onClick) {
  const node = element('button', className, text);
  node.type = 'button';
  node.addEventListener('click', () => onClick(node));
  return node;
}

/**
 * Downloads a PDF of the API's (an invoice, a receipt or a credit note) as the file it names: the API
 * answers it with the session's Bearer token, which a plain link could not send.
 */
async function downloadPdf(path, what, node, line) {
  say(line, null);
  node.disabled = true;
  try {
    const response = await fetch(path, {
      headers: { authorization: `Bearer ${StoreSession.token()}`, accept: 'application/pdf' },
    });
    if (!response.ok) {
      const reply = await response.json().catch(() => null);
      throw new Error(reply?.error?.message ?? response.statusText);
    }
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
    const link = element('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = name ?? `${what}.pdf`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  } catch (error) {
    say(line, errorText(error, `The ${what} could not be downloaded`), 'error');
  } finally {
    node.disabled = false;
  }
}

const documentsPath = (id) => `/api/payment/orders/${encodeURIComponent(id)}`;

/**
 * "Credit notes" on a refunded order or charge: asks the invoice which credit notes were issued against
 * it, then offers each one's PDF (one per refund), named by its number.
 */
async function listCreditNotes(id, node, line) {
  say(line, null);
  node.disabled = true;
  try {
    const { creditNotes } = await api(`${documentsPath(id)}/invoice`);
    if (creditNotes.length === 0) return say(line, 'No credit note was issued for this order yet.');
    node.replaceWith(
      ...creditNotes.map((note) =>
        button(`Credit note ${note.number}`, '', (noteButton) =>
          downloadPdf(
            `${documentsPath(id)}/credit-notes/${encodeURIComponent(note.number)}`,
            'credit note',
            noteButton,
            line,
          ),
        ),
      ),
    );
  } catch (error) {
    say(line, errorText(error, 'The credit notes could not be listed'), 'error');
  } finally {
    node.disabled = false;
  }
}

/**
 * A paid order's or a charge's (`order_…` or `pay_…`) invoice button, once refunded its credit notes'
 * button, and their message line.
 */
function documentButtons(id, refunded) {
  const line = messageLine();
  const actions = element(
    'span',
    'actions',
    button('Invoice', '', (node) => downloadPdf(`${documentsPath(id)}/invoice`, 'invoice', node, line)),
  );
  if (refunded) {
    actions.append(button('Credit notes', '', (node) => listCreditNotes(id, node, line)));
  }
  actions.append(line);
  return actions;
}

function orderRow(order) {
  const plan = order.months ? `${order.planType} ${order.months} mo` : order.planType;
  const row = element(
    'li',
    '',
    element('span', '', `${plan} for ${holderName(order.guildId)}`, ' ', element('small', '', order.orderId)),
    element(
      'span',
      '',
      rupees.format(order.amount),
      order.offerCode
        ? element(
            'small',
            '',
            ` (${order.offerCode}: ${rupees.format(order.discount)} off ${rupees.format(order.listPrice)})`,
          )
        : '',
      ' · ',
      orderState(order),
    ),
  );
  if (order.status === 'created') {
    const actions = element('span', 'actions');
    const line = messageLine();
    // A declined attempt charged nothing: the same order can be paid again.
    if (order.failedAttempt) {
      actions.append(
        button('Pay again', 'primary', () =>
          StoreCheckout.open(order.orderId, line).catch((error) => say(line, errorText(error), 'error')),
        ),
      );
    }
    actions.append(
      button('Check again', '', (node) => recheck(order.orderId, node, line)),
      line,
    );
    row.append(actions);
  } else if (order.paidAt) {
    row.append(documentButtons(order.orderId, /refunded/.test(order.state)));
  }
  const failed = order.failedAttempt
    ? `, payment failed ${formatDate(order.failedAttempt.at)}: ${order.failedAttempt.reason}`
    : '';
  row.title = `ordered ${formatDate(order.createdAt)}${order.paidAt ? `, paid ${formatDate(order.paidAt)}` : ''}${failed}`;
  return row;
}

/** A subscription's charge: paid by the mandate, so nothing to pay again or check. */
function chargeRow(charge) {
  const row = element(
    'li',
    'charge',
    element(
      'span',
      '',
      `${charge.planType} subscription for ${holderName(charge.guildId)}`,
      ' ',
      element('small', '', charge.paymentId),
    ),
    element('span', '', `${rupees.format(charge.amount)} · `, charge.status),
    documentButtons(charge.paymentId, charge.status === 'refunded'),
  );
  const cycle = charge.cycleEnd ? `, for the cycle to ${formatDate(charge.cycleEnd)}` : '';
  row.title = `charged ${formatDate(charge.chargedAt)} by subscription ${charge.subscriptionId}${cycle}`;
  return row;
}

async function loadOrders() {
  const { orders, subscriptionCharges = [] } = await api('/api/payment/orders');
  // One list, newest first: an order by when it was made, a charge by when it was taken.
  const rows = [
    ...orders.map((order) => ({ at: order.createdAt, row: orderRow(order) })),
    ...subscriptionCharges.map((charge) => ({ at: charge.chargedAt, row: chargeRow(charge) })),
  ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  byId('orders').replaceChildren(...rows.map(({ row }) => row));
  if (rows.length === 0) byId('orders').append(element('li', 'empty', 'No orders yet.'));
}

/** After a change: the dashboard (status, servers) and the orders, at once rather than at the next poll. */
async function reloadAll() {
  await refresh();
  renderTargets();
  await loadOrders();
}

/** Asks Razorpay about an unpaid order; the answer stays in its row (the list is redrawn only when it was applied). */
async function recheck(orderId, button, line) {
  say(line, null);
  button.disabled = true;
  try {
    const reply = await api(`/api/payment/orders/${encodeURIComponent(orderId)}/recheck`, {});
    if (reply.applied) {
      await reloadAll();
      say(byId('orders-message'), reply.message);
    } else {
      say(line, reply.message);
    }
  } catch (error) {
    say(line, errorText(error, 'The order could not be checked'), 'error');
  } finally {
    button.disabled = false;
  }
}

async function redeem(event) {
  event.preventDefault();
  say('redeem-message', null);
  const form = event.target.elements;
  const guildId = form.target.value || null;
  try {
    const reply = await api('/api/premium/redeem', {
      code: form.code.value,
      category: guildId ? 'SERVER' : 'USER',
      guildId,
    });
    say(
      'redeem-message',
      `Code redeemed: ${reply.days} days of ${reply.planType} premium for ${holderName(reply.guildId)}, active until ${formatDate(reply.expiresAt)}.`,
    );
    form.code.value = '';
    await reloadAll();
  } catch (error) {
    say('redeem-message', errorText(error, 'The code could not be redeemed'), 'error');
  }
}

async function transfer(event) {
  event.preventDefault();
  say('transfer-message', null);
  const form = event.target.elements;
  const [from, to] = [form.from.value, form.to.value];
  const question = `Move the premium of ${holderName(from)} to ${holderName(to)}? ${holderName(from)} loses it now.`;
  if (!(await PremiumStore.confirm(question, 'Move'))) return;
  try {
    const reply = await api('/api/premium/transfer', { fromGuildId: from, toGuildId: to });
    say(
      'transfer-message',
      `Moved ${reply.days} days of premium from ${holderName(from)} to ${holderName(to)}: active there until ${formatDate(reply.toExpiresAt)}.`,
    );
    await reloadAll();
  } catch (error) {
    say('transfer-message', errorText(error, 'The premium could not be moved'), 'error');
  }
}

/** Builds the cards once, inside the section's container that store.js shows once signed in. */
function buildSelfService() {
  byId('self-service').innerHTML = SKELETON;
  byId('redeem').addEventListener('submit', redeem);
  byId('transfer').addEventListener('submit', transfer);
  byId('transfer').elements.from.addEventListener('change', renderTargets);
}

let selfServiceRound = 0;

// Refreshed with the dashboard at every round of store.js's poll; the orders every few rounds.
PremiumStore.addSection('self-service', {
  async refresh() {
    if (!byId('redeem')) buildSelfService();
    renderTargets();
    if (selfServiceRound++ % ORDERS_EVERY_POLLS !== 0) return;
    try {
      await loadOrders();
    } catch {
      // store.js's poll reports the API being unreachable; the list is asked for again later.
    }
  },
});
