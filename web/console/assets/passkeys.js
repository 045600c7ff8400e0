// Passkeys in the console: registering one on the Account page and
// signing in with one. The server hands out the options of a ceremony as
// JSON (binary fields base64url), this script passes them to
// navigator.credentials and posts the browser's answer back as JSON. It
// listens on the document, so it works on pages htmx swapped in too.
(function () {
  'use strict';

  if (!window.PublicKeyCredential || !navigator.credentials) {
    return;
  }

  // Show the passkey controls of a page, and hide what says the browser
  // has none: without WebAuthn (or this script) it stays the other way.
  function reveal() {
    document.querySelectorAll('[data-passkey]').forEach(function (el) { el.hidden = false; });
    document.querySelectorAll('[data-passkey-missing]').forEach(function (el) { el.hidden = true; });
  }
  document.addEventListener('DOMContentLoaded', reveal);
  document.addEventListener('htmx:afterSettle', reveal);
  reveal();

  function fromB64(s) {
    var b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    var out = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) { out[i] = b.charCodeAt(i); }
    return out.buffer;
  }

  function toB64(buf) {
    var bytes = new Uint8Array(buf), s = '';
    for (var i = 0; i < bytes.length; i++) { s += String.fromCharCode(bytes[i]); }
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  // Decode the binary fields of creation or request options.
  function decode(o) {
    o.challenge = fromB64(o.challenge);
    if (o.user) { o.user.id = fromB64(o.user.id); }
    (o.excludeCredentials || []).concat(o.allowCredentials || []).forEach(function (c) { c.id = fromB64(c.id); });
    return o;
  }

  // The browser's answer, as the server reads it (WebAuthn's JSON form).
  function encode(cred) {
    var r = cred.response, out = {
      id: cred.id, rawId: toB64(cred.rawId), type: cred.type,
      authenticatorAttachment: cred.authenticatorAttachment || undefined,
      clientExtensionResults: cred.getClientExtensionResults(),
      response: { clientDataJSON: toB64(r.clientDataJSON) }
    };
    if (r.attestationObject) {
      out.response.attestationObject = toB64(r.attestationObject);
      out.response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      out.response.authenticatorData = toB64(r.authenticatorData);
      out.response.signature = toB64(r.signature);
      if (r.userHandle) { out.response.userHandle = toB64(r.userHandle); }
    }
    return out;
  }

  function post(url, body, csrf) {
    var headers = { 'Content-Type': 'application/json', 'Accept': 'application/json' };
    if (csrf) { headers['X-CSRF-Token'] = csrf; }
    return fetch(url, { method: 'POST', headers: headers, body: body === undefined ? '' : JSON.stringify(body), credentials: 'same-origin' })
      .then(function (resp) { return resp.json(); });
  }

  // Run a ceremony: fetch its options, ask the browser, post the answer;
  // go where the server says, or show its problem.
  function ceremony(el, csrf, ask, finish, body) {
    var problem = document.getElementById(el.dataset.problem);
    problem.hidden = true;
    post(el.dataset.options, undefined, csrf).then(function (options) {
      if (options.problem) { throw new Error(options.problem); }
      return ask(options).catch(function (err) {
        throw new Error(err && err.name === 'NotAllowedError' ? el.dataset.cancelled : String(err && err.message || err));
      });
    }).then(function (cred) {
      return post(finish, body(encode(cred)), csrf);
    }).then(function (answer) {
      if (answer.redirect) {
        window.location.assign(answer.redirect);
        return;
      }
      throw new Error(answer.problem);
    }).catch(function (err) {
      problem.textContent = err.message;
      problem.hidden = false;
    });
  }

  document.addEventListener('click', function (e) {
    var el = e.target.closest('[data-passkey="sign-in"]');
    if (!el) { return; }
    ceremony(el, '', function (options) {
      return navigator.credentials.get({ publicKey: decode(options.publicKey) });
    }, el.dataset.finish, function (cred) { return cred; });
  });

  document.addEventListener('submit', function (e) {
    var form = e.target.closest('form[data-passkey="register"]');
    if (!form) { return; }
    e.preventDefault();
    var name = form.querySelector('input[name="name"]').value;
    ceremony(form, form.querySelector('input[name="csrf_token"]').value, function (options) {
      return navigator.credentials.create({ publicKey: decode(options.publicKey) });
    }, form.action, function (cred) { return { name: name, credential: cred }; });
  });
}());
