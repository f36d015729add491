"""The web app: a FastAPI JSON API over the session layer, and a thin ES-module/SVG front end."""
