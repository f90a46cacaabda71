"""``POST /v1/recognize`` and ``POST /v1/analyze``: photos in, recognitions (and scores) out.

The upload is read on the event loop; decoding, recognition, scoring and drawing run in worker threads,
at most ``Settings.workers`` photos at a time, so that the server keeps answering (``/healthz``, scoring)
while photos are being read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from fastapi import APIRouter, File, Form, Query, UploadFile
from fastapi.responses import JSONResponse

from api import analysis
from api.routers.deps import HAND_STATUS, OPTION_STATUS, ApiError, ServerState, State
from api.schemas import AnalyzeResponse, ErrorResponse, RecognitionResponse

router = APIRouter(tags=["vision"])
T = TypeVar("T")

_IMAGE_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "empty, truncated or corrupt photo; bad form field"},
    413: {"model": ErrorResponse, "description": "the upload is over the size limit, or has too many pixels"},
    415: {"model": ErrorResponse, "description": "not an image (JPEG, PNG, WebP, HEIC are read)"},
    503: {"model": ErrorResponse, "description": "no tile model is loaded on this server"},
}
Photo = Annotated[UploadFile, File(description="the photo: JPEG, PNG, WebP or HEIC")]


async def _in_worker(state: ServerState, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    state.running += 1
    try:
        return await anyio.to_thread.run_sync(partial(fn, *args, **kwargs), limiter=state.limiter)
    finally:
        state.running -= 1


def _json_object(text: str, field: str) -> dict[str, Any]:
    try:
        value = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ApiError(400, "bad_json", f"{field} is not valid JSON: {exc.msg} at character {exc.pos}") from None
    if not isinstance(value, dict):
        raise ApiError(400, "bad_json", f"{field} must be a JSON object, not {type(value).__name__}")
    return value


@router.post(
    "/v1/recognize",
    response_model=RecognitionResponse,
    summary="Read the tiles in a photo",
    responses=_IMAGE_ERRORS,
)
async def recognize(
    image: Photo,
    state: State,
    annotate: Annotated[bool, Query(description="add annotated_image: the photo with boxes and codes (JPEG)")] = False,
    rules: Annotated[
        str | None,
        Form(
            description="optional: a rule set name from GET /v1/rules, whose hand size the layout reads (17 tiles "
            "with the winning one in taiwan16, 14 in the others); without it, either"
        ),
    ] = None,
) -> Any:
    """The recognition JSON of contracts.md. A rule set named is checked before the photo is decoded."""
    hand_size = analysis.hand_size_of(rules or None)  # an empty field names no rule set
    data = await image.read()
    recognition, jpeg = await _in_worker(
        state,
        analysis.recognize,
        data,
        state.model,
        name=image.filename or "image",
        max_pixels=state.settings.max_pixels,
        annotate=annotate,
        hand_size=hand_size,
    )
    out = recognition.to_json()
    if jpeg is not None:
        out["annotated_image"] = analysis.data_url(jpeg)
    return JSONResponse(out)


@router.post(
    "/v1/analyze",
    response_model=AnalyzeResponse,
    summary="Read the hand in a photo and score it",
    responses={
        **_IMAGE_ERRORS,
        OPTION_STATUS: {
            "model": ErrorResponse,
            "description": "unknown rule set or option, bad JSON in options or situation, bad photo",
        },
        HAND_STATUS: {"model": ErrorResponse, "description": "a situation field no hand can carry"},
    },
)
async def analyze(
    image: Photo,
    rules: Annotated[str, Form(description="a rule set name from GET /v1/rules")],
    state: State,
    options: Annotated[
        str, Form(description='the rule set\'s options as a JSON object, e.g. {"edition": "2006"}')
    ] = "{}",
    situation: Annotated[
        str, Form(description='hand fields laid over the recognised hand, e.g. {"self_drawn": true, "seat_wind": "S"}')
    ] = "{}",
) -> Any:
    """``{"recognition", "score", "annotated_image"}``. The rule set and options are checked before the
    photo is decoded; a recognised hand the rule set refuses gives ``score: {"ok": false, "error": ...}``."""
    ruleset, resolved = analysis.check_rules(rules, _json_object(options, "options"))
    fields = _json_object(situation, "situation")
    analysis.check_situation(fields)
    data = await image.read()
    result = await _in_worker(
        state,
        analysis.analyze,
        data,
        state.model,
        ruleset=ruleset,
        options=resolved,
        situation=fields,
        name=image.filename or "image",
        max_pixels=state.settings.max_pixels,
    )
    return JSONResponse(result.to_json())
