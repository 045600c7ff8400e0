// The payment step, shown only when the seller requires a payment method:
// the customer gives a SEPA direct debit mandate to the creditor the offer
// names. The mandate's text (creditor, identifier, reference, the
// scheme's rights) stands above the agreement; the mandate is saved with
// setPaymentMethod before the review, and signed by the acceptance. The
// IBAN is never shown again after saving, only its masked form.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { field } from '../form.js';
import { stepForm } from './step-form.js';

/** paymentStep renders the payment step. */
export async function paymentStep(flow) {
  const { ctx } = flow;
  if (ctx.payment === undefined) ctx.payment = await savedPaymentMethod(flow);
  const saved = ctx.payment;
  const creditor = saved?.creditor ?? ctx.offer.payment_creditor;
  const draft = ctx.drafts.payment ?? {};
  const holder = draft.account_holder ?? saved?.account_holder ?? ctx.info?.end_customer?.name ?? '';

  const { form } = stepForm(
    flow,
    {
      draft: (body) => {
        // The IBAN stays in the field only: drafts outlive a redraw, and
        // the number is kept nowhere the page does not need it.
        ctx.drafts.payment = { account_holder: body.account_holder, mandate_accepted: body.mandate_accepted };
      },
      check: (body) => {
        const missing = [];
        // A saved mandate is kept as it is when the IBAN is left empty and
        // the holder unchanged; any other change gives the account anew.
        const keep = saved && body.account_holder === saved.account_holder;
        if (!body.iban && !keep) missing.push({ code: 'required', field: 'iban', message: 'is required' });
        if (!body.account_holder) missing.push({ code: 'required', field: 'account_holder', message: 'is required' });
        if (!body.mandate_accepted) missing.push({ code: 'required', field: 'mandate_accepted', message: 'is required' });
        return missing;
      },
      save: async (body) => {
        if (!body.iban) return;
        ctx.payment = await flow.api.setPaymentMethod({
          type: 'sepa_direct_debit',
          iban: body.iban,
          account_holder: body.account_holder,
          mandate_accepted: body.mandate_accepted,
        });
        ctx.drafts.payment = null;
      },
    },
    mandateText(creditor, saved),
    h(
      'fieldset',
      {},
      h('legend', {}, t('payment.account')),
      field({ name: 'account_holder', label: t('payment.holder'), value: holder, required: true, maxlength: 70, autocomplete: 'name' }),
      field({
        name: 'iban',
        label: t('payment.iban'),
        hint: saved ? t('payment.saved', { iban: saved.iban }) : t('payment.ibanHint'),
        required: !saved,
        maxlength: 42,
        autocomplete: 'off',
        spellcheck: 'false',
        inputmode: 'text',
      }),
      field({ name: 'mandate_accepted', label: t('payment.agree', { creditor: creditor.name }), type: 'checkbox', value: draft.mandate_accepted ?? false, required: true }),
    ),
  );
  return h('div', { class: 'screen' }, h('h1', {}, t('payment.title')), h('p', { class: 'lead' }, t('payment.lead')), form);
}

// mandateText is the SEPA mandate as the customer agrees to it: who
// collects, under which identifier and reference, and the scheme's rights.
function mandateText(creditor, saved) {
  const scheme = creditor.scheme === 'B2B' ? 'B2B' : 'CORE';
  return h(
    'section',
    { class: 'mandate', 'aria-labelledby': 'mandate-heading' },
    h('h2', { id: 'mandate-heading' }, t(`payment.mandate.${scheme}`)),
    h(
      'dl',
      {},
      h('dt', {}, t('payment.creditor')),
      h('dd', {}, creditor.name),
      h('dt', {}, t('payment.creditorId')),
      h('dd', {}, creditor.creditor_identifier),
      h('dt', {}, t('payment.reference')),
      h('dd', {}, saved ? saved.mandate_reference : t('payment.referenceLater')),
    ),
    h('p', {}, t(`payment.text.${scheme}`, { creditor: creditor.name })),
  );
}

// savedPaymentMethod is the mandate the customer gave before, null when
// none (404).
async function savedPaymentMethod(flow) {
  try {
    return await flow.api.paymentMethod();
  } catch (err) {
    if (err.status === 404) return null;
    throw err;
  }
}
