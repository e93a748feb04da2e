/* global window, document, byId, api, settings */
'use strict';

// The buy form's billing, for the invoice (docs/invoices.md): the state, asked with no default and listed
// in code order (01 Jammu and Kashmir … 38 Ladakh, 97 Other Territory), or "Outside India" and a country;
// a GSTIN, the address and PIN. Filled with what the buyer gave last (GET /api/me/billing). Loaded before
// store.js and subscriptions.js, which send `StoreBilling.of(form)` with create-order and
// create-subscription.

const ABROAD = 'abroad';

const StoreBilling = {
  /** The state's choices, from the page's settings; a choice is required when the seller invoices GST. */
  render() {
    const form = byId('buy').elements;
    for (const { code, name } of settings.gstStates ?? []) {
      const option = document.createElement('option');
      option.value = code;
      option.textContent = `${code} ${name}`;
      form.stateCode.append(option);
    }
    const abroad = document.createElement('option');
    abroad.value = ABROAD;
    abroad.textContent = 'Outside India';
    form.stateCode.append(abroad);
    form.stateCode.required = Boolean(settings.taxInvoices);
    form.stateCode.addEventListener('change', () => StoreBilling.showCountry());
    StoreBilling.showCountry();
  },

  showCountry() {
    const form = byId('buy').elements;
    byId('billing-country').hidden = form.stateCode.value !== ABROAD;
    form.country.required = form.stateCode.value === ABROAD;
  },

  /** What the buyer gave last, into the form (nothing when they never bought). */
  async fill() {
    const saved = await api('/api/me/billing').catch(() => null);
    if (!saved) return;
    const form = byId('buy').elements;
    form.stateCode.value = saved.country ? ABROAD : (saved.stateCode ?? '');
    for (const field of ['gstin', 'name', 'address', 'pincode', 'country']) {
      form[field].value = saved[field] ?? '';
    }
    StoreBilling.showCountry();
  },

  /** The billing to send, or undefined when nothing was given. */
  of(form) {
    const value = (name) => (form[name].value || '').trim() || null;
    const abroad = form.stateCode.value === ABROAD;
    const billing = {
      stateCode: abroad ? null : value('stateCode'),
      gstin: abroad ? null : (value('gstin')?.toUpperCase() ?? null),
      name: value('name'),
      address: value('address'),
      pincode: abroad ? null : value('pincode'),
      country: abroad ? (value('country')?.toUpperCase() ?? null) : null,
    };
    return Object.values(billing).some((field) => field !== null) ? billing : undefined;
  },
};

window.StoreBilling = StoreBilling;
