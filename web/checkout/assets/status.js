// The offer after the customer accepted it: under review, accepted or
// declined. The screen follows the offer by itself, reading its status
// through the link until the review decides (the customer's token opens
// nothing once the offer has left created), and shows the way back to the
// shop.

import { h, webURL } from './dom.js';
import { t } from './i18n.js';

// The offer is read every few seconds at first, then less often: a manual
// review may take hours.
const quickPolls = 20;
const quickEvery = 3000;
const slowEvery = 15000;

/**
 * shopURL is one of the seller's redirects (success_redirect or
 * exit_redirect) with offer_id, status and seller_offer_reference
 * appended, so the shop knows which offer comes back and how it stands;
 * '' when the seller set none.
 */
export function shopURL(offer, redirect) {
  const base = webURL(redirect ?? '');
  if (!base) return '';
  const url = new URL(base);
  url.searchParams.set('offer_id', offer.id);
  url.searchParams.set('status', offer.status);
  url.searchParams.set('seller_offer_reference', offer.seller_offer_reference);
  return url.href;
}

/** statusScreen shows a reviewed or reviewing offer; pending ones are polled. */
export function statusScreen(flow) {
  const offer = flow.ctx.offer;
  const seller = offer.seller_info.pretty_name || offer.seller_info.name;
  const back = shopURL(offer, offer.success_redirect);
  const exit = shopURL(offer, offer.exit_redirect);
  let content;
  switch (offer.status) {
    case 'pending_review':
      watch(flow);
      content = [
        h('p', { class: 'lead' }, t('status.pending.text')),
        h('p', { class: 'notice info' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('status.pending.watching')),
      ];
      break;
    case 'accepted':
      content = [
        h('p', { class: 'lead' }, t('status.accepted.text', { seller })),
        back ? h('a', { class: 'button primary', href: back }, t('status.back', { seller })) : h('p', {}, t('status.close')),
      ];
      break;
    default:
      content = [
        h('p', { class: 'lead' }, t('status.declined.text', { seller })),
        exit ? h('a', { class: 'button secondary', href: exit }, t('status.back', { seller })) : h('p', {}, t('status.close')),
      ];
  }
  const kind = offer.status === 'pending_review' ? 'pending' : offer.status;
  return h(
    'div',
    { class: `status status-${kind}`, dataset: { status: offer.status } },
    h('h1', {}, t(`status.${kind}.heading`)),
    h('p', { class: 'reference' }, t('status.reference', { reference: offer.seller_offer_reference })),
    content,
  );
}

// watch reads the offer until its status changes, then shows it; one
// watch runs at a time.
function watch(flow) {
  const { ctx } = flow;
  if (ctx.watching) return;
  ctx.watching = true;
  let polls = 0;
  const tick = async () => {
    polls += 1;
    try {
      const offer = await flow.api.anonymizedOffer();
      if (offer.status !== 'pending_review') {
        ctx.watching = false;
        ctx.offer = offer;
        await flow.route(offer, { focus: true });
        return;
      }
    } catch {
      // The next read may succeed; the screen stays as it is.
    }
    setTimeout(tick, polls < quickPolls ? quickEvery : slowEvery);
  };
  setTimeout(tick, quickEvery);
}
