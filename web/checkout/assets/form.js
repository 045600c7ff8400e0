// Form fields with their labels and error messages, and the mapping of the
// API's field errors (named by JSON path) onto them. Forms do not validate
// in the browser: the API checks every field and names each bad one.

import { h, uid, replace } from './dom.js';
import { language, t, has } from './i18n.js';

/**
 * field builds a labelled control whose `name` is the API's path of the
 * value. Options make a select ({value, label}); `type: 'checkbox'` a
 * checkbox with the label beside it.
 */
export function field({ name, label, value = '', type = 'text', options, hint, required = false, ...attrs }) {
  const id = uid('f');
  const errorId = `${id}-error`;
  const hintId = hint ? `${id}-hint` : null;
  const common = {
    id,
    name,
    'aria-describedby': hintId,
    'aria-required': required ? 'true' : null,
    ...attrs,
  };
  let control;
  if (options) {
    control = h('select', { ...common, value }, options.map((o) => h('option', { value: o.value }, o.label)));
  } else if (type === 'checkbox') {
    control = h('input', { ...common, type, checked: Boolean(value) });
  } else {
    control = h('input', { ...common, type, value: value ?? '' });
  }
  control.dataset.errorId = errorId;
  const labelEl = h('label', { for: id }, label, required ? null : h('span', { class: 'optional' }, ` ${t('field.optional')}`));
  const error = h('p', { id: errorId, class: 'field-error', hidden: true });
  const hintEl = hint ? h('p', { id: hintId, class: 'hint' }, hint) : null;
  if (type === 'checkbox') return h('div', { class: 'field checkbox' }, control, labelEl, error);
  return h('div', { class: 'field' }, labelEl, hintEl, control, error);
}

/** values reads a form's named controls into an object nested by path. */
export function values(form) {
  const out = {};
  for (const control of form.elements) {
    if (!control.name || control.disabled) continue;
    const value = control.type === 'checkbox' ? control.checked : control.value.trim();
    const path = control.name.split('.');
    let node = out;
    for (const part of path.slice(0, -1)) node = node[part] ??= {};
    node[path.at(-1)] = value;
  }
  return out;
}

/** clearErrors removes every message a previous attempt showed. */
export function clearErrors(form) {
  for (const control of form.querySelectorAll('[aria-invalid]')) setError(control, '');
  form.querySelector('.error-summary')?.remove();
}

/**
 * showErrors puts each field error next to its control, lists them all in
 * a summary that screen readers announce, and focuses the first bad field.
 * `prefix` is stripped from the API's paths (an address body names its
 * fields alone); errors of fields the form does not have are listed only.
 * It returns how many errors it showed.
 */
export function showErrors(form, errors, prefix = '') {
  clearErrors(form);
  if (errors.length === 0) return 0;
  const items = [];
  let first = null;
  for (const error of errors) {
    const path = prefix && !error.field.startsWith(prefix) ? prefix + error.field : error.field;
    const control = form.querySelector(`[name="${CSS.escape(path)}"]`);
    const text = fieldMessage(error);
    if (control) {
      setError(control, text);
      first ??= control;
      const label = form.querySelector(`label[for="${control.id}"]`)?.firstChild?.textContent ?? path;
      items.push(h('li', {}, h('a', { href: `#${control.id}`, onclick: focusControl(control) }, `${label}: ${text}`)));
    } else {
      const label = has(`fields.${path}`) ? `${t(`fields.${path}`)}: ` : '';
      items.push(h('li', {}, label + text));
    }
  }
  const summary = h(
    'div',
    { class: 'error-summary', role: 'alert', tabindex: '-1' },
    h('h2', {}, t('errors.summary')),
    h('ul', {}, items),
  );
  form.prepend(summary);
  (first ?? summary).focus();
  return errors.length;
}

/** setError shows text next to a control, or clears it for ''. */
export function setError(control, text) {
  const error = document.getElementById(control.dataset.errorId);
  const described = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== error?.id);
  if (text) {
    control.setAttribute('aria-invalid', 'true');
    described.push(error.id);
    replace(error, text);
    error.hidden = false;
  } else {
    control.removeAttribute('aria-invalid');
    if (error) {
      error.hidden = true;
      error.replaceChildren();
    }
  }
  if (described.length) control.setAttribute('aria-describedby', described.join(' '));
  else control.removeAttribute('aria-describedby');
}

/**
 * fieldMessage is what the page says about a field error: the API's own
 * message in English, the meaning of its code in German and Dutch (the API
 * writes its messages in English).
 */
export function fieldMessage(error) {
  if (language() === 'en' && error.message && error.code !== 'required') return sentence(error.message);
  return has(`errors.${error.code}`) ? t(`errors.${error.code}`) : sentence(error.message || error.code);
}

function sentence(text) {
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function focusControl(control) {
  return (event) => {
    event.preventDefault();
    control.focus();
  };
}

/** busy marks a button as working and returns the function that ends it. */
export function busy(button) {
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  return () => {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  };
}

/** notice is a message in the flow of a screen that screen readers announce. */
export function notice(text, kind = 'error') {
  return h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}
