// Step 1, the offer: each line with its terms and services. Every change
// is priced by the preview operation; Continue saves the choice.

import { h, replace } from '../dom.js';
import { date, money, t } from '../i18n.js';
import { monthlyText, priceSummary } from '../summary.js';
import { busy, notice } from '../form.js';

// Prices are previewed once the customer stops changing for this long.
const previewDelay = 250;

/** choicesOf reads the choices an offer holds, per line id. */
export function choicesOf(offer) {
  const choices = new Map();
  for (const line of offer.lines) {
    if (!line.contract_terms_list?.length) continue;
    choices.set(line.id, { term: line.selected_contract_terms_id, services: [...(line.selected_first_party_service_ids ?? [])] });
  }
  return choices;
}

/** choiceList is the choices as the API takes them. */
export function choiceList(choices) {
  return [...choices].map(([id, c]) => ({ offer_line_id: id, selected_contract_terms_id: c.term, selected_services: c.services }));
}

function sameChoices(a, b) {
  return JSON.stringify(choiceList(a)) === JSON.stringify(choiceList(b));
}

/** termLabel describes one contract term, per unit when the line has several. */
export function termLabel(term, quantity) {
  const amount = money(term.payload.amount);
  const text = term.type === 'rent' ? t('term.rent', { months: term.payload.duration, amount }) : t('term.payNow', { amount });
  return quantity > 1 ? `${text} ${t('term.perUnit')}` : text;
}

/** serviceName names a first-party service by its type. */
export function serviceName(service) {
  const key = `service.${service.type}`;
  const name = t(key);
  return name === key ? service.type.replaceAll('_', ' ') : name;
}

/** offerStep renders the first step. */
export function offerStep(flow) {
  const { ctx } = flow;
  const offer = ctx.offer;
  ctx.choices ??= choicesOf(offer);
  const summary = h('div', { class: 'summary-slot' }, priceSummary(ctx.preview ?? offer));
  const problems = h('div', { class: 'problems' });
  // One status region that lives as long as the step: screen readers hear
  // the new monthly total after each change, which a replaced summary
  // would not announce.
  const announcer = h('p', { class: 'visually-hidden', role: 'status' });
  let timer = 0;
  let sequence = 0;

  const preview = () => {
    clearTimeout(timer);
    replace(summary, priceSummary(ctx.preview ?? offer, { updating: true }));
    timer = setTimeout(async () => {
      sequence += 1;
      const mine = sequence;
      try {
        const priced = await flow.api.preview(choiceList(ctx.choices));
        if (mine !== sequence) return;
        ctx.preview = priced;
        replace(problems);
        replace(announcer, monthlyText(priced));
      } catch (err) {
        if (mine !== sequence) return;
        replace(problems, notice(flow.describe(err)));
      }
      replace(summary, priceSummary(ctx.preview ?? offer));
    }, previewDelay);
  };

  const submit = async (event) => {
    event.preventDefault();
    clearTimeout(timer);
    const done = busy(event.submitter ?? actions.querySelector('[type=submit]'));
    try {
      if (!sameChoices(ctx.choices, choicesOf(ctx.offer))) {
        ctx.offer = await flow.api.customize(choiceList(ctx.choices));
      }
      ctx.preview = null;
      await flow.next();
    } catch (err) {
      done();
      if (!(await flow.recover(err))) replace(problems, notice(flow.describe(err)));
    }
  };

  const form = h(
    'form',
    { id: 'offer-form', class: 'step-form', novalidate: true, onsubmit: submit },
    offer.lines.map((line) => lineChoice(line, offer, ctx.choices, preview)),
    problems,
  );
  // The button sits after the prices (on a phone, the customer reads the
  // total before going on) and submits the form by its id.
  const actions = h('div', { class: 'actions' }, h('button', { type: 'submit', form: 'offer-form', class: 'primary' }, t('action.continue')));
  return h(
    'div',
    { class: 'screen' },
    h('h1', {}, t('offer.heading')),
    h('p', { class: 'lead' }, t('offer.lead', { seller: offer.seller_info.pretty_name || offer.seller_info.name, date: date(offer.expires_at) })),
    h('div', { class: 'columns' }, form, summary, actions),
    announcer,
  );
}

function lineChoice(line, offer, choices, changed) {
  const choice = choices.get(line.id);
  const hideBuyNow = offer.seller_info.capability_hide_buy_now;
  const terms = (line.contract_terms_list ?? []).filter((term) => term.type === 'rent' || !hideBuyNow || term.id === choice?.term);
  const services = line.available_first_party_services ?? [];
  const serviceBoxes = [];
  const rents = () => terms.find((term) => term.id === choice.term)?.type === 'rent';

  const syncServices = () => {
    for (const box of serviceBoxes) {
      box.disabled = !rents();
      if (box.disabled) box.checked = false;
    }
    choice.services = serviceBoxes.filter((box) => box.checked).map((box) => box.value);
  };

  const termGroup = choice && terms.length
    ? h(
        'fieldset',
        { class: 'choices' },
        h('legend', {}, t('line.terms', { title: line.title })),
        terms.map((term) => {
          const id = `term-${line.id}-${term.id}`;
          return h(
            'div',
            { class: 'choice' },
            h('input', {
              type: 'radio',
              id,
              name: `term-${line.id}`,
              value: term.id,
              checked: term.id === choice.term,
              onchange: () => {
                choice.term = term.id;
                syncServices();
                changed();
              },
            }),
            h('label', { for: id }, termLabel(term, line.quantity)),
          );
        }),
      )
    : null;

  const serviceGroup = choice && services.length
    ? h(
        'fieldset',
        { class: 'choices services' },
        h('legend', {}, t('line.services', { title: line.title })),
        services.map((service) => {
          const id = `service-${line.id}-${service.id}`;
          const box = h('input', {
            type: 'checkbox',
            id,
            value: service.id,
            checked: choice.services.includes(service.id),
            'aria-describedby': `${id}-details`,
            onchange: () => {
              syncServices();
              changed();
            },
          });
          serviceBoxes.push(box);
          const deductible = service.additional_values?.deductible_price;
          return h(
            'div',
            { class: 'choice' },
            box,
            h('label', { for: id }, serviceName(service)),
            h(
              'p',
              { class: 'details', id: `${id}-details` },
              t('service.price', { amount: money(service.monthly_price) }),
              deductible ? ` · ${t('service.deductible', { amount: money(deductible) })}` : '',
            ),
          );
        }),
        h('p', { class: 'hint' }, t('service.onlyWithRent')),
      )
    : null;
  if (choice) syncServices();

  return h(
    'section',
    { class: 'line', 'aria-label': line.title },
    h(
      'div',
      { class: 'line-head' },
      h('h2', {}, line.title),
      line.subtitle ? h('p', { class: 'subtitle' }, line.subtitle) : null,
      h('p', { class: 'quantity' }, t('line.quantity', { quantity: line.quantity })),
      line.sublines?.length
        ? h('ul', { class: 'sublines', 'aria-label': t('line.includes') }, line.sublines.map((sub) => h('li', {}, t('line.subline', { title: sub.title, quantity: sub.quantity }))))
        : null,
    ),
    termGroup,
    serviceGroup,
  );
}
