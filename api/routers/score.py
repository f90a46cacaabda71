"""``POST /v1/score``: score one hand (JSON) under a rule set."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.routers.deps import HAND_STATUS, OPTION_STATUS
from api.schemas import ErrorResponse, ScoreRequest, ScoreResponse
from scoring import Hand, get, parse_compact

router = APIRouter(tags=["score"])


@router.post(
    "/v1/score",
    response_model=ScoreResponse,
    summary="Score a hand",
    responses={
        OPTION_STATUS: {"model": ErrorResponse, "description": "bad JSON, unknown rule set or option, bad option"},
        413: {"model": ErrorResponse, "description": "the body is over the upload limit"},
        HAND_STATUS: {"model": ErrorResponse, "description": "not a valid hand (5 copies, wrong count, bad meld)"},
    },
)
def score_hand(request: ScoreRequest) -> Any:
    """The score JSON of contracts.md. Refusals raise ``scoring.ScoringError``, which the app turns into
    400 (rule set, options) or 422 (hand)."""
    ruleset = get(request.rules)
    hand = parse_compact(request.hand) if isinstance(request.hand, str) else Hand.from_json(request.hand)
    return JSONResponse(ruleset.score(hand, request.options).to_json())
