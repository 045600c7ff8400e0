// The checkout's course: which screen an offer's status calls for, the
// steps of an open offer and the moves between them, and what to do when
// the API refuses.

import { h, webURL } from './dom.js';
import { date, language, t, useLanguage } from './i18n.js';
import { CustomerAPI } from './api.js';
import { Layout } from './layout.js';
import { endScreen, retryButton } from './ends.js';
import { shopURL, statusScreen } from './status.js';
import { showErrors } from './form.js';
import { offerStep } from './steps/offer.js';
import { companyStep } from './steps/company.js';
import { deliveryStep } from './steps/delivery.js';
import { identityStep } from './steps/identity.js';
import { paymentStep } from './steps/payment.js';
import { reviewStep } from './steps/review.js';

const renderers = {
  offer: offerStep,
  company: companyStep,
  delivery: deliveryStep,
  identity: identityStep,
  payment: paymentStep,
  review: reviewStep,
};

/** Flow drives one offer's checkout in one tab. */
export class Flow {
  constructor(root, session) {
    this.session = session;
    this.api = new CustomerAPI(session);
    // ctx is what the screens read and write: the offer as last read, the
    // customer's data, choices and drafts not yet saved.
    this.ctx = { offer: null, branding: null, info: null, idv: 'not_required', choices: null, preview: null, drafts: {} };
    this.step = null;
    this.screen = null;
    this.layout = new Layout(root, {
      onLanguage: (code) => this.switchLanguage(code),
      onStep: (step) => this.go(step, { focus: true }),
    });
  }

  /**
   * start reads the offer with the link's shared token (and its seller's
   * branding), then shows what the offer's status calls for. The token is
   * exchanged for a bearer token only when an open offer's checkout needs
   * one: once the offer has left created, the link opens its status alone
   * and the exchange is refused. returning says the customer comes back
   * from the identity verification provider.
   */
  async start({ returning = false } = {}) {
    if (!this.session.shared) return this.end('missingToken');
    this.returning = returning;
    let offer;
    try {
      const [anonymized, branding] = await Promise.all([
        this.api.anonymizedOffer(),
        this.api.anonymizedBranding().catch(() => null),
      ]);
      offer = anonymized;
      this.ctx.branding = branding;
    } catch (err) {
      return this.fail(err);
    }
    return this.route(offer);
  }

  /**
   * route shows what an offer's status calls for: the checkout's steps for
   * an open offer, read in full with the bearer token; for any other, the
   * status as the link shows it (or the acceptance answered), which is all
   * the status screens need.
   */
  async route(offer, { focus = false } = {}) {
    const seller = offer.seller_info.pretty_name || offer.seller_info.name;
    this.layout.brand(seller, webURL(this.ctx.branding?.logo_url ?? offer.seller_info.logo_url ?? ''));
    this.layout.exitTo(offer.status === 'accepted' ? '' : shopURL(offer, offer.exit_redirect));
    const superseding = webURL(offer.redirect_to_superseding_offer_url ?? '');
    if (superseding) {
      this.end('superseded', {}, h('a', { class: 'button primary', href: superseding }, t('end.superseded.link')));
      window.location.replace(superseding);
      return;
    }
    try {
      switch (offer.status) {
        case 'created':
          if (!offer.updated_at) this.ctx.offer = await this.api.offer();
          else this.ctx.offer = offer;
          this.ctx.idv = (await this.api.idvRequirement()).result;
          return await this.go(this.firstStep(), { focus });
        case 'pending_review':
        case 'accepted':
        case 'declined':
          this.ctx.offer = offer;
          this.step = null;
          this.layout.progressAt(null);
          this.screen = () => statusScreen(this);
          this.layout.show(this.screen(), { focus, title: t(`status.${offer.status === 'pending_review' ? 'pending' : offer.status}.heading`) });
          return undefined;
        case 'expired':
          return this.end('expired', { date: date(offer.expires_at), seller });
        default:
          return this.end('voided', { seller });
      }
    } catch (err) {
      if (!(await this.recover(err))) this.fail(err);
      return undefined;
    }
  }

  /**
   * steps are the steps of this offer: identity and payment only when they
   * are required.
   */
  get steps() {
    const list = ['offer', 'company', 'delivery'];
    if (this.ctx.idv !== 'not_required') list.push('identity');
    if (this.ctx.offer?.payment_method_required) list.push('payment');
    list.push('review');
    return list;
  }

  firstStep() {
    if (this.returning && this.steps.includes('identity')) return 'identity';
    const kept = this.session.step;
    return this.steps.includes(kept) ? kept : 'offer';
  }

  /** go shows a step; with focus its heading takes the focus. */
  async go(step, { focus = true } = {}) {
    this.step = step;
    this.session.step = step;
    this.layout.progressAt(this.steps, step);
    this.layout.main.setAttribute('aria-busy', 'true');
    this.screen = () => renderers[step](this);
    try {
      const screen = await this.screen();
      if (this.step !== step) return;
      this.layout.show(screen, { focus, title: t(`step.${step}`) });
    } catch (err) {
      if (!(await this.recover(err))) this.fail(err);
    }
  }

  next() {
    const steps = this.steps;
    return this.go(steps[Math.min(steps.indexOf(this.step) + 1, steps.length - 1)]);
  }

  back() {
    const steps = this.steps;
    return this.go(steps[Math.max(steps.indexOf(this.step) - 1, 0)]);
  }

  /** rerender draws the current screen again, e.g. in another language. */
  async rerender() {
    if (!this.screen) return;
    const step = this.step;
    const screen = await this.screen();
    if (this.step !== step) return;
    this.layout.show(screen, { title: step ? t(`step.${step}`) : '' });
  }

  async switchLanguage(code) {
    const focusedLanguage = document.activeElement?.id === 'language';
    await useLanguage(code, true);
    this.layout.render();
    await this.rerender();
    if (focusedLanguage) document.getElementById('language')?.focus();
  }

  /**
   * recover handles the refusals that send the customer elsewhere: an offer
   * that changed or closed meanwhile, data the acceptance finds missing, a
   * billing country the seller cannot serve, a link that expired. It says
   * whether it did; other errors are the caller's to show.
   */
  async recover(err) {
    const { ctx } = this;
    if (movedOn(err)) {
      // The link tells where the offer stands: the only read that still
      // works once the offer has left created.
      let current;
      try {
        current = await this.api.anonymizedOffer();
      } catch (readErr) {
        this.fail(readErr);
        return true;
      }
      ctx.choices = null;
      ctx.preview = null;
      if (current.status !== 'created' || current.redirect_to_superseding_offer_url) {
        await this.route(current, { focus: true });
        return true;
      }
      if (err.status === 400) {
        this.fail(err);
        return true;
      }
      if (err.status === 422) ctx.offer = await this.api.offer();
      if (err.name === 'OutOfDate') {
        ctx.reviewNotice = t('review.changed');
        await this.go('review');
        return true;
      }
      return false;
    }
    if (err.name === 'ValidationError' && this.step === 'review' && err.errors.every((e) => e.field === 'payment_method')) {
      await this.go('payment');
      return true;
    }
    if (err.name === 'ValidationError' && this.step === 'review') {
      const shipping = err.errors.every((e) => e.field.startsWith('shipping_address'));
      await this.go(shipping ? 'delivery' : 'company');
      this.showErrorsOnScreen(err.errors, shipping ? 'shipping_address.' : '');
      return true;
    }
    if (err.status === 409 && err.name === 'IncompatibleContractualEntity') {
      await this.go('company');
      this.showErrorsOnScreen([{ code: 'incompatible_entity', field: 'end_customer.billing_address.country_code', message: '' }]);
      return true;
    }
    return false;
  }

  showErrorsOnScreen(errors, prefix = '') {
    const form = this.layout.main.querySelector('form');
    if (form) showErrors(form, errors, prefix);
  }

  /** describe is what a notice says about an error no screen handles. */
  describe(err) {
    if (err.status === 0) return t('errors.network');
    if (err.status >= 500) return t('errors.server');
    if (language() === 'en' && err.message) return `${t('errors.generic')} ${err.message}`;
    return t('errors.generic');
  }

  /** fail ends the checkout with the screen that explains a refusal. */
  fail(err) {
    if (err.status === 400 && err.name === 'InvalidToken') {
      const expiry = this.session.sharedExpiry();
      if (expiry && expiry <= new Date()) return this.end('expiredLink', { date: date(expiry) });
      return this.end('invalidLink');
    }
    if (err.status === 400 || err.status === 404) return this.end(err.status === 404 ? 'notFound' : 'invalidLink');
    if (err.status === 501) return this.end('unavailable', {}, retryButton());
    return this.end('failure', {}, retryButton());
  }

  end(kind, params = {}, ...actions) {
    this.step = null;
    this.layout.progressAt(null);
    this.screen = () => endScreen(kind, params, ...actions);
    this.layout.show(this.screen(), { title: t(`end.${kind}.heading`, params) });
  }
}

// movedOn says whether a refusal may mean that the offer has moved on
// since the page read it: its credentials no longer open it (a customer
// token revoked or refused while the offer is under review, an exchange
// refused), or the offer refused a change in its state.
function movedOn(err) {
  return (
    err.status === 401 ||
    (err.status === 403 && err.name === 'OfferNotOpen') ||
    (err.status === 400 && err.name === 'InvalidToken') ||
    (err.status === 422 && (err.name === 'OutOfDate' || err.name === 'Unprocessable'))
  );
}
