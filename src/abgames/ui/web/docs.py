"""/docs (Swagger UI) served from this server, never from a CDN.

The assets come from the ``fastapi-offline`` package (its ``static`` folder: Swagger
UI's bundle and CSS). There is no /redoc: the ReDoc the package ships (3.x) always shows
Redocly's logo from its CDN, which the policy blocks. FastAPI's own pages start Swagger UI
with an inline script, which the Content-Security-Policy forbids; here the pages load
only script files (Swagger UI's start-up is the small ``swagger-init.js`` below), so
``security.DOCS_POLICY`` needs no 'unsafe-inline' for scripts and no other host.
"""

from __future__ import annotations

import html
from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

#: Where the vendored assets are mounted.
ASSETS_URL = "/docs-assets"
ASSETS_DIR = Path(fastapi_offline.__file__).parent / "static"

SWAGGER_INIT = """\
// Starts Swagger UI on /docs (a file, not an inline script: the page's CSP forbids those).
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""

router = APIRouter(include_in_schema=False)


def _page(title: str, head: str, body: str) -> HTMLResponse:
    text = (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n"
        f'<link rel="icon" href="{ASSETS_URL}/vendor/favicon.png">\n{head}</head>\n'
        f"<body>\n{body}</body>\n</html>\n"
    )
    return HTMLResponse(text, headers={"Cache-Control": "no-cache"})


@router.get("/docs")
async def swagger_ui() -> HTMLResponse:
    return _page(
        "abgames API",
        f'<link rel="stylesheet" href="{ASSETS_URL}/vendor/swagger-ui.css">\n',
        '<div id="swagger-ui"></div>\n'
        f'<script src="{ASSETS_URL}/vendor/swagger-ui-bundle.js"></script>\n'
        f'<script src="{ASSETS_URL}/swagger-init.js"></script>\n',
    )


@router.get(f"{ASSETS_URL}/swagger-init.js")
async def swagger_init() -> Response:
    return Response(SWAGGER_INIT, media_type="text/javascript")


def add_docs(app: FastAPI) -> None:
    """Serve /docs and its assets (the app is made with docs_url=None and redoc_url=None)."""
    app.include_router(router)
    app.mount(f"{ASSETS_URL}/vendor", StaticFiles(directory=ASSETS_DIR), name="docs-assets")
