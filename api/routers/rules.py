"""``GET /v1/rules``: every rule set with its options, the situation fields it reads and their kinds.

The entries are those of ``mjscan rules --json``: each field comes with its kind (``scoring.fields``), so
that the web page can draw a control for it without knowing any rule set.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.schemas import RuleSetInfo
from scoring import rulesets, unscorable

router = APIRouter(tags=["rules"])


def describe_all() -> list[dict[str, Any]]:
    """Every scorable rule set, then the games that cannot be scored."""
    return [rs.describe() for rs in rulesets().values()] + [u.describe() for u in unscorable().values()]


@router.get("/v1/rules", response_model=list[RuleSetInfo], summary="The rule sets, options and situation fields")
def list_rules() -> JSONResponse:
    """Whatever rule sets ``scoring/rules/`` holds, scorable ones first."""
    return JSONResponse(describe_all())
