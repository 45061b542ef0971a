"""What the service serves besides the API: the web page (its files sent
compressed when the browser accepts it), a favicon, and ``/docs`` with the
Swagger UI files that the page's build copies from the ``swagger-ui-dist``
package, so that the API's documentation works without internet (in a
tournament hall).
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

#: the favicon, shipped with the package (the page need not be built for it)
FAVICON = Path(__file__).resolve().parent / "assets" / "favicon.svg"
#: compressed twins written by the page's build, best first
_ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def compressed(path: Path, accept_encoding: str | None) -> tuple[Path, dict[str, str]]:
    """The file to send for ``path`` given the request's ``Accept-Encoding``:
    its ``.br`` or ``.gz`` twin when one exists and the client takes it, with
    the headers that say so; else the file itself.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "main.js").write_text("x"); _ = (d / "main.js.gz").write_bytes(b"z")
    >>> p, h = compressed(d / "main.js", "gzip, deflate, br")
    >>> p.name, h["Content-Encoding"]
    ('main.js.gz', 'gzip')
    >>> compressed(d / "main.js", None)[0].name
    'main.js'
    """
    accepted = {part.split(";")[0].strip().lower() for part in (accept_encoding or "").split(",")}
    for encoding, suffix in _ENCODINGS:
        twin = path.with_name(path.name + suffix)
        if encoding in accepted and twin.is_file():
            return twin, {"Content-Encoding": encoding, "Vary": "Accept-Encoding"}
    return path, {"Vary": "Accept-Encoding"}


def _file(path: Path, accept_encoding: str | None) -> FileResponse:
    sent, headers = compressed(path, accept_encoding)
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    # the file names carry no hash: the browser checks back (ETag) before reusing a copy
    headers["Cache-Control"] = "no-cache"
    return FileResponse(sent, media_type=media_type, headers=headers, stat_result=os.stat(sent))


class PageFiles(StaticFiles):
    """The built page's files (``web/dist``), sent compressed where the browser
    accepts it; 404 with a hint while the page is not built."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve a file, or 404 when the directory does not exist (yet)."""
        if self.directory is None or not Path(self.directory).is_dir():
            await JSONResponse({"detail": "the web page is not built (run make web)",
                                "code": "page_not_built"}, status_code=404)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        """The file, or its compressed twin (``Content-Encoding``)."""
        headers = Headers(scope=scope)
        response = _file(Path(full_path), headers.get("accept-encoding"))
        if self.is_not_modified(response.headers, headers):
            return Response(status_code=304, headers={
                k: v for k, v in response.headers.items() if k.lower() in ("etag", "vary")})
        return response


def mount_page(app: FastAPI, web_dist: Path) -> None:
    """Add the page (``/``, ``/static``), the favicon and the offline ``/docs``
    to ``app`` (created with ``docs_url=None``)."""
    app.mount("/static", PageFiles(directory=web_dist, check_dir=False), name="static")

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False, response_model=None)
    def index(request: Request) -> Response:
        page = web_dist / "index.html"
        if page.is_file():
            return _file(page, request.headers.get("accept-encoding"))
        return HTMLResponse("<!doctype html><title>remis</title><p>The web page is not built "
                            "(run <code>make web</code>); the API is under <a href='/docs'>"
                            "/docs</a>.</p>", status_code=200)

    # browsers and link checkers ask with HEAD too
    @app.api_route("/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/favicon.svg", methods=["GET", "HEAD"], include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(FAVICON, media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        local = (web_dist / "docs" / "swagger-ui-bundle.js").is_file()
        assets = "/static/docs" if local else "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5"
        return get_swagger_ui_html(openapi_url=app.openapi_url or "/openapi.json",
                                   title=f"{app.title}: the HTTP API",
                                   swagger_js_url=f"{assets}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{assets}/swagger-ui.css",
                                   swagger_favicon_url="/favicon.svg")
