"""``GET /v1/rules``: every rule set with its options, the situation fields it reads and their kinds.

The entries are those of ``mjscan rules --json``; each scorable one also gets ``fields``, the kind of each
situation field (read off ``scoring.Hand``), so that the web page can draw a control for it without knowing
any rule set.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.schemas import RuleSetInfo
from scoring import Hand, rulesets, unscorable

router = APIRouter(tags=["rules"])

_WINDS = ["E", "S", "W", "N"]
#: The allowed values of the hand fields whose type alone does not say them (contracts.md).
_CHOICES: dict[str, list[Any]] = {"seat_index": [0, 1, 2, 3], "void_suit": ["m", "p", "s"]}
#: Field kind by the annotation of its ``scoring.Hand`` attribute.
_KIND_OF_TYPE = {"bool": "bool", "int": "int", "int | None": "int", "str": "wind", "list[str]": "tiles"}


@cache
def _hand_fields() -> dict[str, dataclasses.Field]:
    return {f.name: f for f in dataclasses.fields(Hand)}


def field_info(name: str) -> dict[str, Any]:
    """The kind, default and choices of one situation field of the hand JSON."""
    f = _hand_fields().get(name)
    if f is None:
        return {"name": name, "type": "any", "default": None}
    default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
    annotation = str(f.type)
    kind = _KIND_OF_TYPE.get(annotation, "tile" if annotation == "str | None" else "any")
    if name == "void_suit":
        kind = "suit"
    out: dict[str, Any] = {"name": name, "type": kind, "default": default}
    choices = _WINDS if kind == "wind" else _CHOICES.get(name)
    if choices is not None:
        out["choices"] = choices
    return out


def describe_all() -> list[dict[str, Any]]:
    """Every scorable rule set (with ``fields``), then the games that cannot be scored."""
    out = [{**rs.describe(), "fields": [field_info(n) for n in rs.situation]} for rs in rulesets().values()]
    out += [{**u.describe(), "fields": []} for u in unscorable().values()]
    return out


@router.get("/v1/rules", response_model=list[RuleSetInfo], summary="The rule sets, options and situation fields")
def list_rules() -> JSONResponse:
    """Whatever rule sets ``scoring/rules/`` holds, scorable ones first."""
    return JSONResponse(describe_all())
