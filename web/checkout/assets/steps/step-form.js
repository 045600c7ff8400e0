// The form of a step that saves the customer's data: Back and Continue,
// drafts kept while typing (a language switch redraws the step), and the
// API's refusals shown where they belong.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { busy, clearErrors, notice, showErrors, values } from '../form.js';

/**
 * stepForm builds the form around children. On Continue it reads the
 * values, lets `check` name fields the page knows are missing, `save`s
 * them and moves to the next step. Field errors of a ValidationError go
 * next to their fields (API paths, `prefix` added where the API names the
 * fields of its body alone); other refusals, unless the flow recovers,
 * become a notice, as does what `say` is given.
 */
export function stepForm(flow, { draft, save, check = () => [], prefix = '' }, ...children) {
  const problems = h('div', { class: 'problems' });
  const submit = async (event) => {
    event.preventDefault();
    clearErrors(form);
    replace(problems);
    const body = values(form);
    if (showErrors(form, check(body), prefix) > 0) return;
    const done = busy(event.submitter ?? form.querySelector('[type=submit]'));
    try {
      await save(body);
      await flow.next();
    } catch (err) {
      done();
      if (err.name === 'ValidationError') showErrors(form, err.errors, prefix);
      else if (!(await flow.recover(err))) replace(problems, notice(flow.describe(err)));
    }
  };
  const form = h(
    'form',
    { class: 'step-form', novalidate: true, onsubmit: submit, oninput: () => draft(values(form)) },
    children,
    problems,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'secondary', onclick: () => flow.back() }, t('action.back')),
      h('button', { type: 'submit', class: 'primary' }, t('action.continue')),
    ),
  );
  return { form, say: (text) => replace(problems, notice(text, 'info')) };
}
