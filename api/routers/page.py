"""``GET /``: the web page for use at the table, its service worker and its static files.

The service worker is served from the root (its scope is the whole site) with a cache name made from the
static files' contents, so that a new version of the page replaces the cached one.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(tags=["page"])


@cache
def static_version() -> str:
    """A short hash of every static file (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in STATIC.rglob("*") if p.is_file()):
        digest.update(path.relative_to(STATIC).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@router.get("/", response_class=FileResponse, summary="The web page for use at the table")
def page() -> FileResponse:
    """Take or pick a photo, correct the tiles, choose the rule set and situation, see the score."""
    return FileResponse(STATIC / "index.html", media_type="text/html", headers={"Cache-Control": "no-cache"})


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> Response:
    text = (STATIC / "sw.js").read_text(encoding="utf-8").replace("__VERSION__", static_version())
    return Response(text, media_type="text/javascript", headers={"Cache-Control": "no-cache"})
