// The customer's credentials for one offer. The shared token of the link
// is kept in this tab's sessionStorage, because the identity verification
// provider sends the customer back without it; the bearer token from the
// exchange lives in memory only and is exchanged anew when it runs out.
// Neither ever goes to localStorage or a cookie.

const tokenExchange = {
  grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
  subject_token_type: 'urn:tenure:params:oauth:token-type:offer-link',
};

// A bearer token is replaced this long before it expires.
const renewMargin = 60_000;

/** ExchangeError is a refused token exchange, with the RFC 6749 error code. */
export class ExchangeError extends Error {
  constructor(status, code, description) {
    super(description || code);
    this.status = status;
    this.code = code;
  }
}

/** Session holds the tokens of one offer in this tab. */
export class Session {
  constructor(offerId) {
    this.offerId = offerId;
    this.key = `tenure-checkout:${offerId}`;
    this.memory = null;
    this.access = null;
    this.pending = null;
  }

  /** shared is the offer's shared token, from the link or kept in this tab. */
  get shared() {
    try {
      return sessionStorage.getItem(this.key) ?? this.memory;
    } catch {
      return this.memory;
    }
  }

  /** remember keeps the shared token of the link for this tab. */
  remember(token) {
    this.memory = token;
    this.access = null;
    try {
      sessionStorage.setItem(this.key, token);
    } catch {
      // Without storage the round trip to the provider needs the link again.
    }
  }

  /** sharedExpiry is when the shared token expires, if it says. */
  sharedExpiry() {
    // The token is "<unix expiry>.<mac>" (package links); the page reads
    // the expiry only to tell an expired link from a broken one.
    const seconds = Number((this.shared ?? '').split('.')[0]);
    return Number.isInteger(seconds) && seconds > 0 ? new Date(seconds * 1000) : null;
  }

  /** bearer is a valid access token for the offer, exchanged when needed. */
  async bearer() {
    if (this.access && this.access.expires - renewMargin > Date.now()) return this.access.token;
    this.pending ??= this.exchange().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** step is the step this tab showed last, so a reload stays there. */
  get step() {
    try {
      return sessionStorage.getItem(`${this.key}:step`);
    } catch {
      return null;
    }
  }

  set step(step) {
    try {
      sessionStorage.setItem(`${this.key}:step`, step);
    } catch {
      // A reload then starts at the first step.
    }
  }

  /** forget drops the access token after the API refused it. */
  forget() {
    this.access = null;
  }

  async exchange() {
    const body = new URLSearchParams({
      ...tokenExchange,
      subject_token: this.shared ?? '',
      audience: this.offerId,
    });
    let response;
    try {
      response = await fetch('/oauth2/token', { method: 'POST', body, cache: 'no-store' });
    } catch {
      throw new ExchangeError(0, 'network');
    }
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new ExchangeError(response.status, answer.error, answer.error_description);
    this.access = { token: answer.access_token, expires: Date.now() + answer.expires_in * 1000 };
    return this.access.token;
  }
}
