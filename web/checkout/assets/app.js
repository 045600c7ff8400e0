// The hosted checkout's entry: the offer id from the address, the shared
// token from ?token= (kept for this tab), ?idv_session= when the identity
// verification provider sends the customer back. See flow.js for the rest.

import { chosenLanguage, useLanguage } from './i18n.js';
import { Session } from './session.js';
import { Flow } from './flow.js';

async function main() {
  const [, , , id = ''] = window.location.pathname.split('/');
  const params = new URLSearchParams(window.location.search);
  await useLanguage(chosenLanguage());
  const session = new Session(decodeURIComponent(id));
  const token = params.get('token');
  if (token) session.remember(token);
  const returning = params.has('idv_session');
  if (returning) {
    // The session id has done its work; a reload should not claim a return.
    const url = new URL(window.location.href);
    url.searchParams.delete('idv_session');
    window.history.replaceState(null, '', url);
  }
  await new Flow(document.getElementById('app'), session).start({ returning });
}

main().catch(() => {
  // Only a page that could not load its own files gets here: say so
  // without the catalogs, in the languages the page speaks.
  const main = document.getElementById('main');
  main.removeAttribute('aria-busy');
  main.replaceChildren(
    Object.assign(document.createElement('h1'), { textContent: 'The checkout could not load · Der Checkout konnte nicht geladen werden · De checkout kon niet worden geladen' }),
    Object.assign(document.createElement('p'), { textContent: 'Please reload the page. · Bitte laden Sie die Seite neu. · Laad de pagina opnieuw.' }),
  );
});
