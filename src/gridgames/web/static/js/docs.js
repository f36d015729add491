// The API documentation page: Swagger UI on the app's own OpenAPI description.
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
