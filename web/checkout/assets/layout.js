// The frame around every screen: the seller's logo and name, the language
// switcher, the progress through the steps and the way out to the shop.

import { h, replace } from './dom.js';
import { languages, language, t } from './i18n.js';

/** Layout owns the page's regions; screens render into its main region. */
export class Layout {
  constructor(root, { onLanguage, onStep }) {
    this.onLanguage = onLanguage;
    this.onStep = onStep;
    this.seller = null;
    this.logo = null;
    this.exit = '';
    this.steps = null;
    this.header = h('header', { class: 'masthead' });
    this.progress = h('nav', { class: 'progress', hidden: true });
    this.main = root.querySelector('main') ?? h('main', { id: 'main', class: 'main', tabindex: '-1' });
    this.footer = h('footer', { class: 'footer' });
    replace(root, this.header, h('div', { class: 'page' }, this.progress, this.main), this.footer);
    this.render();
  }

  /** brand shows the seller: its name and, when it has one, its logo. */
  brand(seller, logo) {
    this.seller = seller;
    this.logo = logo;
    this.render();
  }

  /** exitTo offers the way back to the shop, or none for an empty URL. */
  exitTo(url) {
    this.exit = url || '';
    this.render();
  }

  /** progressAt shows the steps, `current` being the one on screen; null hides them. */
  progressAt(steps, current) {
    this.steps = steps ? { list: steps, current } : null;
    this.render();
  }

  /** render redraws the frame in the page's language. */
  render() {
    const switcher = h(
      'select',
      {
        id: 'language',
        class: 'language',
        value: language(),
        onchange: (event) => this.onLanguage(event.target.value),
      },
      languages.map((l) => h('option', { value: l.code, lang: l.code }, l.name)),
    );
    const name = this.seller ? h('span', { class: 'seller-name' }, this.seller) : h('span', { class: 'seller-name' }, t('page.title'));
    // The name stands beside the logo, so the logo itself is decoration.
    const logo = this.logo ? h('img', { class: 'logo', src: this.logo, alt: '' }) : null;
    replace(
      this.header,
      h('div', { class: 'brand' }, logo, name),
      h('div', { class: 'switcher' }, h('label', { for: 'language' }, t('header.language')), switcher),
    );
    this.renderProgress();
    replace(
      this.footer,
      this.exit ? h('a', { class: 'exit', href: this.exit }, t('footer.leave')) : null,
      h('p', { class: 'powered' }, t('footer.powered')),
    );
  }

  renderProgress() {
    this.progress.hidden = !this.steps;
    if (!this.steps) {
      this.progress.replaceChildren();
      return;
    }
    const { list, current } = this.steps;
    const at = list.indexOf(current);
    this.progress.setAttribute('aria-label', t('steps.label'));
    replace(
      this.progress,
      h(
        'ol',
        {},
        list.map((step, i) => {
          const label = [h('span', { class: 'step-number', 'aria-hidden': 'true' }, String(i + 1)), t(`step.${step}`)];
          if (i === at) return h('li', { class: 'step current', 'aria-current': 'step' }, label);
          if (i < at) {
            return h('li', { class: 'step done' }, h('button', { type: 'button', class: 'link', onclick: () => this.onStep(step) }, label));
          }
          return h('li', { class: 'step' }, label);
        }),
      ),
    );
  }

  /**
   * show puts a screen in the main region. With focus, the screen's
   * heading takes the focus, so a keyboard or screen reader user starts
   * reading at the new step rather than at the button just pressed.
   */
  show(screen, { focus = false, title = '' } = {}) {
    replace(this.main, screen);
    this.main.removeAttribute('aria-busy');
    document.title = [title, this.seller || t('page.title')].filter(Boolean).join(' – ');
    if (focus) {
      const heading = this.main.querySelector('h1');
      if (heading) {
        heading.setAttribute('tabindex', '-1');
        heading.focus();
      }
    }
  }
}
