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
});
