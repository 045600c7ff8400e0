// Starts Swagger UI on the contract the page names. The page's policy
// allows its own files only, so the renderer gets no validator badge (it
// would call validator.swagger.io) and shows operation ids, the names
// integrations and generated clients know the operations by.
const root = document.getElementById('swagger-ui');
window.ui = SwaggerUIBundle({
  url: root.dataset.contract,
  domNode: root,
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  onComplete: offerThisServer,
});

// The Seller API's contract names the server of `tenure dev`
// (http://127.0.0.1:8080). When the page comes from elsewhere, its own
// origin is offered first, so "Try it out" and Authorize call the Tenure
// that serves the page, the only one the policy lets it reach.
function offerThisServer() {
  const spec = window.ui.specSelectors.specJson().toJS();
  const servers = spec.servers || [];
  if (servers.some((s) => new URL(s.url, window.location.href).origin === window.location.origin)) {
    return;
  }
  spec.servers = [{ url: window.location.origin, description: 'This Tenure' }, ...servers];
  window.ui.specActions.updateJsonSpec(spec);
  // The renderer keeps the server it selected first while that one is
  // still listed.
  window.ui.oas3Actions.setSelectedServer(window.location.origin);
}
