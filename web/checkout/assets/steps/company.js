// Step 2, company and contact: prefilled from what the seller sent, saved
// with the end-customer-info operation, whose field errors appear next to
// their fields.

import { h, replace } from '../dom.js';
import { countryName, language, t } from '../i18n.js';
import { field } from '../form.js';
import { stepForm } from './step-form.js';

// The legal forms of each country, generated from the rules the API checks
// them with (package checkout); loaded when this step first shows.
let legalForms = null;

async function loadLegalForms() {
  legalForms ??= (await import('../legal-forms.js')).byCountry;
  return legalForms;
}

function formsOf(country) {
  return legalForms[country] ?? legalForms[''];
}

/** countryOptions lists countries by name, keeping a current value the list lacks. */
export function countryOptions(codes, current) {
  const all = [...new Set([...(codes ?? []), ...(current ? [current] : [])])];
  return [{ value: '', label: t('field.choose') }, ...all.map((code) => ({ value: code, label: countryName(code) })).sort((a, b) => a.label.localeCompare(b.label))];
}

/** companyStep renders the second step. */
export async function companyStep(flow) {
  const { ctx } = flow;
  await loadLegalForms();
  ctx.info ??= await flow.api.endCustomerInfo();
  const saved = ctx.info;
  const draft = ctx.drafts.company ?? prefill(saved, ctx.offer);
  const c = draft.end_customer;
  const u = draft.end_user;
  const country = field({
    name: 'end_customer.billing_address.country_code',
    label: t('address.country'),
    options: countryOptions(ctx.offer.allowed_billing_countries, c.billing_address.country_code),
    value: c.billing_address.country_code,
    required: true,
    autocomplete: 'country',
  });
  const legalForm = field({ name: 'end_customer.type', label: t('company.legalForm'), options: [], required: true });
  const registration = field({
    name: 'end_customer.company_registration_number',
    label: t('company.registration'),
    value: c.company_registration_number,
    maxlength: 64,
  });
  const noVat = field({ name: 'end_customer.not_vat_registered', label: t('company.noVat'), type: 'checkbox', value: c.not_vat_registered, required: true });
  const vat = field({ name: 'end_customer.vat_number', label: t('company.vat'), value: c.vat_number, maxlength: 32, required: true, hint: t('company.vatHint') });
  const tax = field({ name: 'end_customer.tax_number', label: t('company.tax'), value: c.tax_number, maxlength: 64, required: true });
  const countrySelect = country.querySelector('select');
  const formSelect = legalForm.querySelector('select');

  const syncForms = () => {
    const current = formSelect.value || c.type;
    const forms = formsOf(countrySelect.value);
    const options = [{ code: '', name: t('field.choose') }, ...forms.map(([code, name]) => ({ code, name }))];
    if (current && !forms.some(([code]) => code === current)) options.push({ code: current, name: current });
    replace(formSelect, options.map((o) => h('option', { value: o.code }, o.name)));
    formSelect.value = current ?? '';
    const registered = forms.find(([code]) => code === formSelect.value)?.[2];
    markRequired(registration, Boolean(registered));
  };
  const syncVat = () => {
    const none = noVat.querySelector('input').checked;
    vat.hidden = none;
    vat.querySelector('input').disabled = none;
    tax.hidden = !none;
    tax.querySelector('input').disabled = !none;
  };
  countrySelect.addEventListener('change', syncForms);
  formSelect.addEventListener('change', syncForms);
  noVat.querySelector('input').addEventListener('change', syncVat);

  const { form } = stepForm(
    flow,
    {
      draft: (body) => {
        ctx.drafts.company = body;
      },
      save: async (body) => {
        body.end_customer.id = saved.end_customer?.id;
        body.end_customer.language = language();
        body.end_user.id = saved.end_user?.id;
        ctx.info = await flow.api.updateEndCustomerInfo(body);
        ctx.drafts.company = null;
      },
    },
    h(
      'fieldset',
      {},
      h('legend', {}, t('company.heading')),
      field({ name: 'end_customer.name', label: t('company.name'), value: c.name, required: true, maxlength: 255, autocomplete: 'organization' }),
      legalForm,
      registration,
      noVat,
      vat,
      tax,
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, t('billing.heading')),
      addressFields('end_customer.billing_address', c.billing_address, 'billing'),
      country,
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, t('contact.heading')),
      field({ name: 'end_user.first_name', label: t('contact.firstName'), value: u.first_name, required: true, maxlength: 255, autocomplete: 'given-name' }),
      field({ name: 'end_user.last_name', label: t('contact.lastName'), value: u.last_name, required: true, maxlength: 255, autocomplete: 'family-name' }),
      field({
        name: 'end_user.phone_country_code',
        label: t('contact.phoneCountry'),
        options: countryOptions(ctx.offer.allowed_billing_countries, u.phone_country_code),
        value: u.phone_country_code,
        required: true,
      }),
      field({
        name: 'end_user.phone_national_number',
        label: t('contact.phone'),
        type: 'tel',
        value: u.phone_national_number,
        required: true,
        maxlength: 32,
        autocomplete: 'tel-national',
      }),
      saved.end_user?.email ? h('p', { class: 'readonly' }, t('contact.email', { email: saved.end_user.email })) : null,
    ),
  );
  syncForms();
  syncVat();
  return h('div', { class: 'screen' }, h('h1', {}, t('company.title')), h('p', { class: 'lead' }, t('company.lead')), form);
}

/** addressFields are the street, postal code and city of an address at path. */
export function addressFields(path, address, section) {
  const a = address ?? {};
  return [
    field({ name: `${path}.line1`, label: t('address.line1'), value: a.line1, required: true, maxlength: 255, autocomplete: `${section} address-line1` }),
    field({ name: `${path}.line2`, label: t('address.line2'), value: a.line2, maxlength: 40, autocomplete: `${section} address-line2` }),
    h(
      'div',
      { class: 'row' },
      field({ name: `${path}.postal_code`, label: t('address.postalCode'), value: a.postal_code, required: true, maxlength: 32, autocomplete: `${section} postal-code` }),
      field({ name: `${path}.city`, label: t('address.city'), value: a.city, required: true, maxlength: 255, autocomplete: `${section} address-level2` }),
    ),
  ];
}

function markRequired(wrapper, required) {
  const control = wrapper.querySelector('input, select');
  const optional = wrapper.querySelector('.optional');
  if (required) control.setAttribute('aria-required', 'true');
  else control.removeAttribute('aria-required');
  if (optional) optional.hidden = required;
}

// prefill is the form's first content: the customer's data as stored, the
// seller's company data where the customer has none yet.
function prefill(info, offer) {
  const customer = info.end_customer ?? {};
  const user = info.end_user ?? {};
  const seller = offer.customer?.company ?? {};
  const billing = customer.billing_address ?? seller.billing_address ?? {};
  return {
    end_customer: {
      name: customer.name ?? seller.name ?? '',
      type: customer.type ?? seller.type ?? '',
      company_registration_number: customer.company_registration_number ?? seller.company_registration_number ?? '',
      vat_number: customer.vat_number ?? seller.vat_number ?? '',
      tax_number: customer.tax_number ?? seller.tax_number ?? '',
      not_vat_registered: Boolean(customer.not_vat_registered),
      billing_address: {
        line1: billing.line1 ?? '',
        line2: billing.line2 ?? '',
        postal_code: billing.postal_code ?? '',
        city: billing.city ?? '',
        country_code: billing.country_code ?? offer.allowed_billing_countries?.[0] ?? '',
      },
    },
    end_user: {
      first_name: user.first_name ?? '',
      last_name: user.last_name ?? '',
      phone_country_code: user.phone_number?.country_code ?? billing.country_code ?? '',
      phone_national_number: user.phone_number?.national ?? '',
    },
  };
}
