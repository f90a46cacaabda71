"""What every router shares: the server's settings, its state (the one loaded model) and the API error."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import anyio
from fastapi import Depends, Request

from vision.io import DEFAULT_MAX_PIXELS
from vision.recognize import reader_digest

#: HTTP status of each ``vision.io.ImageError`` code (contracts.md: 400 bad input, 413 too large,
#: 415 not an image). A code not listed here is bad input.
IMAGE_ERROR_STATUS: dict[str, int] = {"not_an_image": 415, "too_many_pixels": 413}

#: HTTP status of the scorer's refusals: an unknown rule set or option is bad input, a hand that cannot
#: exist is not a valid hand.
OPTION_STATUS, HAND_STATUS = 400, 422


@dataclass(frozen=True)
class Settings:
    """The server's limits. ``workers``: photos recognised at once (each uses the model's own threads)."""

    max_upload_bytes: int = 20 * 1024 * 1024
    max_pixels: int = DEFAULT_MAX_PIXELS
    workers: int = 2
    model_dir: Path | None = None


@dataclass
class ServerState:
    """Created once at start-up and shared by every request: the tile model (None when it could not be
    loaded, with the reason in ``model_error``) and the limiter that keeps recognition off the event loop."""

    settings: Settings
    model: Any = None
    model_error: str | None = None
    limiter: anyio.CapacityLimiter | None = None
    #: photos being read now or waiting for a worker (changed only on the event loop)
    running: int = 0

    def model_info(self) -> dict[str, Any]:
        """The model's ``info`` for /healthz, with the version of the code reading photos with it
        (``vision.recognize.reader_digest``), or why there is none."""
        if self.model is None:
            return {"loaded": False, "error": self.model_error or "no tile model loaded"}
        return {"loaded": True, **dict(getattr(self.model, "info", {}) or {}), "reader": reader_digest()}


class ApiError(Exception):
    """A refusal: the status and the contract's ``{"error": {"code", "message"}}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def get_state(request: Request) -> ServerState:
    """The server's shared state (a FastAPI dependency)."""
    return request.app.state.mjscan


#: The shared state as a parameter of a route.
State = Annotated[ServerState, Depends(get_state)]
