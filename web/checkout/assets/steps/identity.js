// Step 4, identity verification, shown only when the offer requires it:
// the customer goes to the provider's page and comes back here with
// idv_session in the address; the requirement then follows the session.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { busy, notice } from '../form.js';

// While the provider's result is on its way, the requirement is read again
// this often, this many times, before the customer is asked to check.
const pollEvery = 2000;
const pollTimes = 15;

/** identityStep renders the verification step for ctx.idv. */
export function identityStep(flow) {
  const { ctx } = flow;
  const problems = h('div', { class: 'problems' });
  const state = ctx.idv;

  const start = async (event) => {
    const done = busy(event.currentTarget);
    replace(problems);
    try {
      const { url } = await flow.api.startIdv();
      window.location.assign(url);
    } catch (err) {
      done();
      if (!(await flow.recover(err))) replace(problems, notice(flow.describe(err)));
    }
  };
  const check = async () => {
    try {
      ctx.idv = (await flow.api.idvRequirement()).result;
      flow.rerender();
    } catch (err) {
      replace(problems, notice(flow.describe(err)));
    }
  };

  const body = [];
  const actions = [h('button', { type: 'button', class: 'secondary', onclick: () => flow.back() }, t('action.back'))];
  switch (state) {
    case 'verified':
      body.push(h('p', { class: 'notice success', role: 'status' }, t('identity.verified')));
      actions.push(h('button', { type: 'button', class: 'primary', onclick: () => flow.next() }, t('action.continue')));
      break;
    case 'pending':
      body.push(h('p', { class: 'notice info', role: 'status' }, t('identity.pending')));
      actions.push(h('button', { type: 'button', class: 'secondary', onclick: check }, t('identity.check')));
      actions.push(h('button', { type: 'button', class: 'primary', onclick: start }, t('identity.resume')));
      pollRequirement(flow);
      break;
    case 'failed':
      body.push(h('p', { class: 'notice error', role: 'alert' }, t('identity.failed')));
      actions.push(h('button', { type: 'button', class: 'primary', onclick: start }, t('identity.retry')));
      break;
    default:
      body.push(h('p', {}, t('identity.required')));
      actions.push(h('button', { type: 'button', class: 'primary', onclick: start }, t('identity.start')));
  }
  return h('div', { class: 'screen' }, h('h1', {}, t('identity.title')), body, problems, h('div', { class: 'actions' }, actions));
}

// pollRequirement reads the requirement until the provider's result is in,
// then shows the step again; one poll runs at a time.
function pollRequirement(flow) {
  const { ctx } = flow;
  if (ctx.idvPolling) return;
  ctx.idvPolling = true;
  let times = 0;
  const tick = async () => {
    times += 1;
    try {
      ctx.idv = (await flow.api.idvRequirement()).result;
    } catch {
      // A failed read is retried at the next tick.
    }
    if (ctx.idv === 'pending' && times < pollTimes) {
      setTimeout(tick, pollEvery);
      return;
    }
    ctx.idvPolling = false;
    // Still pending after the last read: the customer's "check" button asks again.
    if (ctx.idv !== 'pending' && flow.step === 'identity') flow.rerender();
  };
  setTimeout(tick, pollEvery);
}
