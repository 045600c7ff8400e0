// Texts, amounts and dates in the customer's language. Texts come from the
// catalogs in messages/; amounts and dates from the browser's Intl, so
// 1234.56 EUR reads 1.234,56 € in German and € 1.234,56 in Dutch.

/** The languages of the checkout, with their names in themselves. */
export const languages = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'nl', name: 'Nederlands' },
];

// Each language is formatted the way its main market writes it.
const locales = { en: 'en-GB', de: 'de-DE', nl: 'nl-NL' };

const choiceKey = 'tenure-checkout-language';

let current = 'en';
let catalog = {};

/**
 * chosenLanguage is the customer's choice in this tab, else the one the
 * server picked from Accept-Language for the page's lang attribute.
 */
export function chosenLanguage() {
  const known = (code) => languages.some((l) => l.code === code);
  let stored = null;
  try {
    stored = sessionStorage.getItem(choiceKey);
  } catch {
    // Storage may be off; the page's language still applies.
  }
  if (known(stored)) return stored;
  const page = document.documentElement.lang;
  return known(page) ? page : 'en';
}

/** useLanguage loads a catalog and makes it the page's language. */
export async function useLanguage(code, remember = false) {
  const response = await fetch(new URL(`./messages/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`message catalog ${code}: HTTP ${response.status}`);
  catalog = await response.json();
  current = code;
  document.documentElement.lang = code;
  if (remember) {
    try {
      sessionStorage.setItem(choiceKey, code);
    } catch {
      // The choice then lasts until the page is left.
    }
  }
}

/** language is the code of the page's language. */
export function language() {
  return current;
}

/** t is the text of key with {name} placeholders filled from params. */
export function t(key, params = {}) {
  const text = catalog[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** has reports whether the catalog has a text for key. */
export function has(key) {
  return key in catalog;
}

const moneyFormats = new Map();

function moneyFormat(currency) {
  const key = `${current}:${currency}`;
  if (!moneyFormats.has(key)) {
    moneyFormats.set(key, new Intl.NumberFormat(locales[current], { style: 'currency', currency }));
  }
  return moneyFormats.get(key);
}

/**
 * money formats an amount of the API (integer minor units) net of tax, as
 * business customers compare prices; `gross` picks the amount with tax.
 */
export function money(amount, { gross = false } = {}) {
  if (!amount) return '';
  const format = moneyFormat(amount.currency || 'EUR');
  const digits = format.resolvedOptions().maximumFractionDigits;
  const minor = gross ? amount.gross : amount.net;
  return format.format(minor / 10 ** digits);
}

/** date formats an RFC 3339 time as a long date. */
export function date(value) {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(locales[current], { dateStyle: 'long' }).format(d);
}

/** countryName names an ISO 3166-1 alpha-2 country in the page's language. */
export function countryName(code) {
  try {
    return new Intl.DisplayNames([locales[current]], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
