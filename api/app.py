"""The HTTP API and the web page (``mjscan serve``): ``create_app(settings)`` builds the FastAPI app.

The tile model is loaded once at start-up and shared by every request; without a model the server still
scores hands and serves the page, and says so at ``/healthz``. Every refusal is the contract's JSON
``{"error": {"code", "message"}}`` with 400 (bad input), 413 (too large), 415 (not an image), 422 (not a
valid hand) or 503 (no model); an unexpected failure is logged here and answered with a plain 500 JSON error,
never a stack trace.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import analysis
from api.routers import health, page, rules, score, vision
from api.routers.deps import (
    HAND_STATUS,
    IMAGE_ERROR_STATUS,
    OPTION_STATUS,
    ApiError,
    ServerState,
    Settings,
)
from scoring import HandError, ScoringError
from vision.io import ImageError

log = logging.getLogger("mjscan.api")

#: Room for the multipart headers and the small form fields around an upload of the maximum size.
FORM_OVERHEAD = 64 * 1024
_LOAD = object()
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The contract's error JSON with its status."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class UploadTooLarge(HTTPException):
    """A request body over the limit (raised while it is being read, so nothing more of it is kept)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the upload is over the limit of {limit / 2**20:g} MB")


class UploadLimit:
    """Refuses a request body over ``max_bytes``: at once when Content-Length says so, else while reading."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes + FORM_OVERHEAD
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            exc = UploadTooLarge(self.max_bytes)
            await error_response(413, "too_large", exc.detail)(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise UploadTooLarge(self.max_bytes)
            return message

        await self.app(scope, counted, send)


def create_app(settings: Settings | None = None, *, model: Any = _LOAD) -> FastAPI:
    """The app. ``model``: the tile model to share (default: loaded from ``settings.model_dir`` at
    start-up; None: serve without recognition)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state = ServerState(settings, limiter=anyio.CapacityLimiter(max(1, settings.workers)))
        if model is _LOAD:
            try:
                state.model = analysis.load_model(settings.model_dir)
            except analysis.NoModel as exc:
                state.model_error = exc.message
                log.warning("serving without recognition: %s", exc.message)
        else:
            state.model = model
            state.model_error = None if model is not None else "this server was started without a tile model"
        app.state.mjscan = state
        yield

    app = FastAPI(
        title="mjscan",
        summary="Read a mahjong hand from a photo and score it under the rules your table plays.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.add_middleware(UploadLimit, max_bytes=settings.max_upload_bytes)
    for router in (health.router, rules.router, score.router, vision.router, page.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=page.STATIC), name="static")
    _add_error_handlers(app)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(ImageError)
    async def image_error(_: Request, exc: ImageError) -> JSONResponse:
        return error_response(IMAGE_ERROR_STATUS.get(exc.code, 400), exc.code, exc.message)

    @app.exception_handler(ScoringError)
    async def scoring_error(_: Request, exc: ScoringError) -> JSONResponse:
        return error_response(HAND_STATUS if isinstance(exc, HandError) else OPTION_STATUS, exc.code, exc.message)

    @app.exception_handler(analysis.NoModel)
    async def no_model(request: Request, exc: analysis.NoModel) -> JSONResponse:
        reason = request.app.state.mjscan.model_error or exc.message
        return error_response(503, exc.code, f"photos cannot be read on this server: {reason}")

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, "bad_json", "the body is not valid JSON")
        parts = []
        for e in errors[:3]:
            where = ".".join(str(p) for p in e.get("loc", ())[1:]) or "body"
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        return error_response(400, "bad_request", "; ".join(parts))

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "bad_request" if exc.status_code < 500 else "server_error")
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected failure on %s %s", request.method, request.url.path)
        return error_response(500, "internal_error", "the server failed on this request; the failure is logged")
