// Screens where the checkout ends without steps: links that cannot be
// opened, offers that can no longer be accepted, and failures. Each says
// in words what happened and what the customer can do.

import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * endScreen is the screen of one ending (end.<kind>.* in the catalogs),
 * with optional actions below the text.
 */
export function endScreen(kind, params = {}, ...actions) {
  return h(
    'div',
    { class: `end end-${kind}`, dataset: { end: kind } },
    h('h1', {}, t(`end.${kind}.heading`, params)),
    h('p', { class: 'lead' }, t(`end.${kind}.text`, params)),
    actions.length ? h('div', { class: 'actions' }, actions) : null,
  );
}

/** retryButton reloads the page, for failures that may pass. */
export function retryButton() {
  return h('button', { type: 'button', class: 'primary', onclick: () => window.location.reload() }, t('action.retry'));
}
