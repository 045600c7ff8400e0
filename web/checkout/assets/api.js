// The Customer-Facing API as the page uses it: the anonymised reads with
// the link's shared token, every other operation with the offer's bearer
// token while the offer is open; once it has left created, the link's read
// of its status is all the page uses. Texts the API writes follow the
// page's language.

import { language } from './i18n.js';
import { ExchangeError } from './session.js';

/**
 * APIError is a refusal: the HTTP status (0 when the API could not be
 * reached), the error's name, and what the body adds (field errors of a
 * ValidationError, the type of an InvalidDiscountCodeError).
 */
export class APIError extends Error {
  constructor(status, body) {
    const named = body && typeof body === 'object';
    super(named ? body.message ?? '' : String(body ?? ''));
    this.status = status;
    this.name = named ? body.name ?? '' : String(body ?? '').split(':')[0];
    this.errors = named && Array.isArray(body.errors) ? body.errors : [];
    this.type = named ? body.type ?? '' : '';
  }
}

/** CustomerAPI calls the operations of one offer. */
export class CustomerAPI {
  constructor(session) {
    this.session = session;
    this.id = encodeURIComponent(session.offerId);
  }

  anonymizedOffer() {
    return this.shared('GET', `/offers/${this.id}/anonymized`);
  }

  anonymizedBranding() {
    return this.shared('GET', `/branding/offers/${this.id}/anonymized`);
  }

  offer() {
    return this.bearer('GET', `/offers/${this.id}`);
  }

  preview(choices) {
    return this.bearer('PUT', `/offers/${this.id}/preview-customize-terms-services`, { lines: choices });
  }

  customize(choices) {
    return this.bearer('PUT', `/offers/${this.id}/customize-terms-services`, { lines: choices });
  }

  endCustomerInfo() {
    return this.bearer('GET', `/offers/${this.id}/end-customer-info`);
  }

  updateEndCustomerInfo(info) {
    return this.bearer('PUT', `/offers/${this.id}/end-customer-info`, info);
  }

  updateShippingAddress(address) {
    return this.bearer('PUT', `/offers/${this.id}/update-shipping-address`, address);
  }

  idvRequirement() {
    return this.bearer('GET', `/offers/${this.id}/idv-requirement`);
  }

  startIdv() {
    return this.bearer('GET', `/offers/${this.id}/id-verification`);
  }

  paymentMethod() {
    return this.bearer('GET', `/offers/${this.id}/payment-method`);
  }

  setPaymentMethod(body) {
    return this.bearer('PUT', `/offers/${this.id}/payment-method`, body);
  }

  terms() {
    return this.bearer('GET', `/offers/${this.id}/terms_and_conditions_links`);
  }

  validateDiscount(code) {
    return this.bearer('POST', '/discount/validate', { discount_code: code, offer_id: this.session.offerId });
  }

  accept(body) {
    return this.bearer('PUT', `/offers/${this.id}/accept`, body);
  }

  shared(method, path) {
    const token = encodeURIComponent(this.session.shared ?? '');
    return this.send(method, `${path}?token=${token}`, undefined, {});
  }

  // bearer sends with the offer's access token; a token the API no longer
  // takes (401) is exchanged anew once.
  async bearer(method, path, body) {
    for (let attempt = 0; ; attempt += 1) {
      let token;
      try {
        token = await this.session.bearer();
      } catch (err) {
        throw exchangeRefusal(err);
      }
      try {
        return await this.send(method, path, body, { Authorization: `Bearer ${token}` });
      } catch (err) {
        if (!(err instanceof APIError) || err.status !== 401 || attempt > 0) throw err;
        this.session.forget();
      }
    }
  }

  async send(method, path, body, headers) {
    const init = {
      method,
      cache: 'no-store',
      headers: { ...headers, Accept: 'application/json', 'Accept-Language': language() },
    };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    let response;
    try {
      response = await fetch(`/customer${path}`, init);
    } catch {
      throw new APIError(0, { name: 'network' });
    }
    const text = await response.text();
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = { name: 'unreadable' };
    }
    if (!response.ok) throw new APIError(response.status, answer);
    return answer;
  }
}

// exchangeRefusal says a refused exchange in the API's words: a link that
// is wrong or expired is an InvalidToken, whichever operation asked.
function exchangeRefusal(err) {
  if (!(err instanceof ExchangeError)) return err;
  if (err.code === 'invalid_grant') return new APIError(400, { name: 'InvalidToken', message: err.message });
  return new APIError(err.status, { name: err.code, message: err.message });
}
