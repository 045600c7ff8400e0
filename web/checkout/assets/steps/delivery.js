// Step 3, delivery: where the goods go, prefilled with the offer's
// shipping address and saved with update-shipping-address.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { field, values } from '../form.js';
import { stepForm } from './step-form.js';
import { addressFields, countryOptions } from './company.js';

// The fields the contract requires of a shipping address (minLength 1):
// the page names them itself rather than send what the API would refuse.
const required = ['line1', 'postal_code', 'city', 'country_code'];
const prefix = 'shipping_address.';

/** deliveryStep renders the third step. */
export function deliveryStep(flow) {
  const { ctx } = flow;
  const address = ctx.drafts.delivery ?? ctx.offer.shipping_address ?? {};
  const countries = ctx.offer.allowed_billing_countries;

  const useBilling = () => {
    const billing = ctx.info?.end_customer?.billing_address;
    if (!billing) return;
    for (const name of ['line1', 'line2', 'postal_code', 'city', 'country_code']) {
      const control = form.elements.namedItem(prefix + name);
      if (control) control.value = billing[name] ?? '';
    }
    const recipient = form.elements.namedItem(`${prefix}recipient_name`);
    if (recipient && !recipient.value) recipient.value = ctx.info.end_customer.name ?? '';
    ctx.drafts.delivery = values(form).shipping_address;
    say(t('delivery.copied'));
  };

  const { form, say } = stepForm(
    flow,
    {
      prefix,
      draft: (body) => {
        ctx.drafts.delivery = body.shipping_address;
      },
      check: (body) => required.filter((name) => !body.shipping_address[name]).map((name) => ({ code: 'required', field: prefix + name, message: 'is required' })),
      save: async (body) => {
        const address = Object.fromEntries(Object.entries(body.shipping_address).filter(([, value]) => value !== ''));
        ctx.offer = await flow.api.updateShippingAddress(address);
        ctx.drafts.delivery = null;
      },
    },
    ctx.info?.end_customer?.billing_address
      ? h('div', { class: 'actions start' }, h('button', { type: 'button', class: 'secondary', onclick: useBilling }, t('delivery.useBilling')))
      : null,
    h(
      'fieldset',
      {},
      h('legend', {}, t('delivery.address')),
      field({ name: `${prefix}recipient_name`, label: t('delivery.recipient'), value: address.recipient_name, maxlength: 255, autocomplete: 'shipping organization' }),
      addressFields('shipping_address', address, 'shipping'),
      field({
        name: `${prefix}country_code`,
        label: t('address.country'),
        options: countryOptions(countries, address.country_code),
        value: address.country_code ?? '',
        required: true,
        autocomplete: 'shipping country',
      }),
    ),
  );
  const pickup = ctx.offer.shipping?.is_in_store_pickup ? h('p', { class: 'lead' }, t('delivery.pickup')) : null;
  return h('div', { class: 'screen' }, h('h1', {}, t('delivery.title')), h('p', { class: 'lead' }, t('delivery.lead')), pickup, form);
}
