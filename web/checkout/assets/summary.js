// The prices of the offer as chosen: what the customer pays each month,
// at first, for shipping, and what buying would cost instead.

import { h } from './dom.js';
import { money, t } from './i18n.js';

/** monthlyText says the monthly total of an offer, or '' when it has none. */
export function monthlyText(offer) {
  const monthly = offer.pricing_overview.rent_info?.total_rent;
  return monthly && monthly.net > 0 ? `${t('summary.monthly')}: ${t('summary.perMonth', { amount: money(monthly) })}` : '';
}

/** priceSummary lists the totals of an offer (or of a preview). */
export function priceSummary(offer, { updating = false } = {}) {
  const overview = offer.pricing_overview;
  const monthly = overview.rent_info?.total_rent;
  const rows = [];
  const row = (label, value, cls = '') => rows.push(h('dt', { class: cls }, label), h('dd', { class: cls }, value));
  if (monthly && monthly.net > 0) row(t('summary.monthly'), h('span', { class: 'amount' }, t('summary.perMonth', { amount: money(monthly) })), 'total');
  const discount = overview.applied_discount;
  if (discount) row(t('summary.discount', { code: discount.code }), `− ${money(discount.amount)}`);
  row(t('summary.firstPayment'), money(overview.total_amount_first_payment));
  const shipping = offer.shipping?.price;
  if (offer.shipping?.is_in_store_pickup) row(t('summary.shipping'), t('summary.pickup'));
  else if (shipping) row(t('summary.shipping'), shipping.net > 0 ? money(shipping) : t('summary.free'));
  if (overview.should_show_instead_of_amount) {
    row(t('summary.insteadOf'), h('s', {}, money(overview.instead_of_amount)), 'instead');
  }
  return h(
    'section',
    { class: 'summary', 'aria-labelledby': 'summary-heading', 'aria-busy': updating ? 'true' : null },
    h('h2', { id: 'summary-heading' }, t('summary.heading')),
    h('dl', {}, rows),
    h('p', { class: 'note' }, updating ? t('summary.updating') : t('summary.vatNote')),
  );
}
