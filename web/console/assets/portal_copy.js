// The merchant portal's copy buttons: a button with data-copy copies the
// text of the field it names (an offer's checkout link) and says so in
// the element data-copy-status names. Listening on the document keeps it
// working on pages htmx swaps in; without it, the field's text can be
// selected and copied by hand.
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) {
    return;
  }
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.copyStatus);
  if (!field) {
    return;
  }
  const say = (text) => {
    if (status) {
      status.textContent = text;
    }
  };
  field.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(
      () => say(button.dataset.copied),
      () => say(button.dataset.copyFailed));
    return;
  }
  // Outside a secure context (plain http in development) the clipboard
  // API is missing; the older command still copies the selection.
  say(document.execCommand('copy') ? button.dataset.copied : button.dataset.copyFailed);
});
