// Step 5, review and accept: everything the customer chose and entered,
// the contract documents in the customer's language with a consent box,
// a discount code checked on the spot, and one accept button.

import { h, replace } from '../dom.js';
import { countryName, money, t } from '../i18n.js';
import { priceSummary } from '../summary.js';
import { busy, clearErrors, field, notice, setError } from '../form.js';
import { serviceName, termLabel } from './offer.js';

/** reviewStep renders the last step. */
export async function reviewStep(flow) {
  const { ctx } = flow;
  ctx.info ??= await flow.api.endCustomerInfo();
  const terms = await flow.api.terms();
  const offer = ctx.offer;
  const problems = h('div', { class: 'problems' }, ctx.reviewNotice ? notice(ctx.reviewNotice) : null);
  ctx.reviewNotice = null;

  const documents = terms.applicable_terms_and_conditions ?? [];
  const consent = field({
    name: 'consent',
    type: 'checkbox',
    label: documents.length ? t('review.consent') : t('review.consentNoDocuments'),
    required: true,
  });
  const discount = field({ name: 'discount_code', label: t('review.discount'), value: ctx.discountCode ?? '', maxlength: 64, autocomplete: 'off' });
  const discountInput = discount.querySelector('input');
  const discountStatus = h('p', { class: 'discount-status', role: 'status' });

  const checkDiscount = async (event) => {
    const code = discountInput.value.trim();
    setError(discountInput, '');
    replace(discountStatus);
    if (!code) return;
    const done = busy(event.currentTarget);
    try {
      await flow.api.validateDiscount(code);
      ctx.discountCode = code;
      replace(discountStatus, t('review.discountValid', { code }));
    } catch (err) {
      ctx.discountCode = null;
      if (err.name === 'InvalidDiscountCodeError') setError(discountInput, t(`discount.${err.type}`));
      else replace(problems, notice(flow.describe(err)));
    } finally {
      done();
    }
  };

  const submit = async (event) => {
    event.preventDefault();
    clearErrors(form);
    replace(problems);
    const box = consent.querySelector('input');
    if (!box.checked) {
      setError(box, t('review.consentMissing'));
      box.focus();
      return;
    }
    const done = busy(event.submitter ?? actions.querySelector('[type=submit]'));
    const body = { last_updated_at: offer.updated_at };
    const code = discountInput.value.trim();
    if (code) body.discount_code = code;
    try {
      ctx.offer = await flow.api.accept(body);
      await flow.route(ctx.offer, { focus: true });
    } catch (err) {
      done();
      if (err.name === 'InvalidDiscountCodeError') {
        setError(discountInput, t(`discount.${err.type}`));
        discountInput.focus();
      } else if (!(await flow.recover(err))) {
        replace(problems, notice(flow.describe(err)));
      }
    }
  };

  const form = h(
    'form',
    { id: 'review-form', class: 'step-form', novalidate: true, onsubmit: submit },
    h(
      'section',
      { class: 'review-block', 'aria-labelledby': 'review-documents' },
      h('h2', { id: 'review-documents' }, t('review.documents')),
      documents.length
        ? h('ul', { class: 'documents' }, documents.map((doc) => h('li', {}, h('a', { href: doc.url, target: '_blank', rel: 'noopener noreferrer' }, documentName(doc)))))
        : h('p', {}, t('review.noDocuments')),
      consent,
    ),
    h(
      'section',
      { class: 'review-block', 'aria-labelledby': 'review-discount' },
      h('h2', { id: 'review-discount' }, t('review.discountHeading')),
      h('div', { class: 'inline' }, discount, h('button', { type: 'button', class: 'secondary', onclick: checkDiscount }, t('review.applyDiscount'))),
      discountStatus,
    ),
    problems,
  );
  // As on the first step, the prices come before the accept button.
  const actions = h(
    'div',
    { class: 'actions' },
    h('button', { type: 'button', class: 'secondary', onclick: () => flow.back() }, t('action.back')),
    h('button', { type: 'submit', form: 'review-form', class: 'primary accept' }, t('review.accept')),
  );

  return h(
    'div',
    { class: 'screen' },
    h('h1', {}, t('review.title')),
    h('div', { class: 'columns' }, h('div', { class: 'column-main' }, overview(flow), form), h('div', { class: 'summary-slot' }, priceSummary(offer)), actions),
  );
}

// overview restates the choices and the data, each with a way back to
// the step that changes it.
function overview(flow) {
  const { ctx } = flow;
  const offer = ctx.offer;
  const customer = ctx.info.end_customer ?? {};
  const user = ctx.info.end_user ?? {};
  const edit = (step, label) => h('button', { type: 'button', class: 'link', onclick: () => flow.go(step, { focus: true }) }, label);
  const address = (a) => (a ? [a.line1, a.line2, `${a.postal_code ?? ''} ${a.city ?? ''}`.trim(), a.country_code ? countryName(a.country_code) : ''].filter(Boolean).join(', ') : '');
  const lines = offer.lines.map((line) => {
    const term = line.contract_terms_list?.find((x) => x.id === line.selected_contract_terms_id);
    const services = (line.available_first_party_services ?? []).filter((s) => line.selected_first_party_service_ids?.includes(s.id));
    return h(
      'li',
      {},
      h('strong', {}, `${line.quantity} × ${line.title}`),
      term ? h('span', { class: 'details' }, termLabel(term, line.quantity)) : null,
      services.map((s) => h('span', { class: 'details' }, `${serviceName(s)}: ${t('service.price', { amount: money(s.monthly_price) })}`)),
    );
  });
  return h(
    'div',
    { class: 'review-grid' },
    h('section', { class: 'review-block' }, h('h2', {}, t('step.offer')), h('ul', { class: 'plain' }, lines), edit('offer', t('review.editOffer'))),
    h(
      'section',
      { class: 'review-block' },
      h('h2', {}, t('step.company')),
      h('p', {}, customer.name ?? ''),
      h('p', {}, address(customer.billing_address)),
      h('p', {}, [user.first_name, user.last_name].filter(Boolean).join(' ')),
      user.email ? h('p', {}, user.email) : null,
      edit('company', t('review.editCompany')),
    ),
    h(
      'section',
      { class: 'review-block' },
      h('h2', {}, t('step.delivery')),
      offer.shipping_address?.recipient_name ? h('p', {}, offer.shipping_address.recipient_name) : null,
      h('p', {}, address(offer.shipping_address)),
      edit('delivery', t('review.editDelivery')),
    ),
  );
}

function documentName(doc) {
  const key = `document.${doc.type}`;
  const name = t(key);
  return name === key ? doc.type.replaceAll('_', ' ') : name;
}
