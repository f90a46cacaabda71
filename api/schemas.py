"""Request and response models of the HTTP API: they make ``/openapi.json`` describe every call.

The answers themselves are the JSON of contracts.md, written by ``scoring`` and ``vision``; these models
document them (with examples) and check the JSON bodies that come in. Rule-set specific fields (riichi's
``han``, ``fu``, ``points``, an item's ``name_ja``) are allowed wherever the contract allows them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

_EXAMPLE_HAND: dict[str, Any] = {
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2p", "3p", "5z", "5z"],
    "melds": [],
    "win_tile": "4p",
    "self_drawn": True,
    "seat_wind": "E",
    "round_wind": "E",
    "riichi": True,
}

_EXAMPLE_SCORE: dict[str, Any] = {
    "ok": True,
    "rules": "riichi",
    "options": {"red_fives": True},
    "winning": True,
    "unit": "han",
    "total": 3,
    "items": [
        {"id": "riichi", "name_en": "Riichi", "name_ja": "立直", "value": 1, "count": 1, "tiles": []},
        {
            "id": "menzen_tsumo",
            "name_en": "Fully Concealed Hand",
            "name_ja": "門前清自摸和",
            "value": 1,
            "count": 1,
            "tiles": [],
        },
        {"id": "pinfu", "name_en": "Pinfu", "name_ja": "平和", "value": 1, "count": 1, "tiles": []},
    ],
    "arrangement": [["1m", "2m", "3m"], ["2p", "3p", "4p"], ["4p", "5p", "6p"], ["7s", "8s", "9s"], ["5z", "5z"]],
    "payments": {"dealer": 2000, "non_dealer": 1000},
    "notes": [],
    "han": 3,
    "fu": 20,
}

_EXAMPLE_RECOGNITION: dict[str, Any] = {
    "image": "IMG_0412.jpg",
    "width": 4032,
    "height": 3024,
    "tiles": [
        {
            "code": "1m",
            "box": [412.0, 1630.5, 655.0, 1962.0],
            "score": 0.98,
            "rotated": False,
            "alternatives": [{"code": "7m", "probability": 0.03}],
        }
    ],
    "hand": {"concealed": ["1m", "2m", "3m"], "melds": [], "win_tile": "4p", "flowers": []},
    "hand_tiles": {"concealed": [0, 1, 2], "melds": [], "win_tile": 3, "flowers": []},
    "complete_with": [],
    "warnings": ["found 13 tiles; a complete hand has 14"],
    "timings_ms": {"decode": 21, "detect": 38, "classify": 9, "total": 71},
}

_IMAGE_URL = "data:image/jpeg;base64,/9j/4AAQSkZJRg..."


class ErrorDetail(BaseModel):
    """Why a request was refused: a code for programs, a message for people."""

    code: str = Field(description="machine-readable reason, e.g. not_an_image, unknown_rules, too_many_copies")
    message: str = Field(description="what went wrong, in words")


class ErrorResponse(BaseModel):
    """Every refusal of the API (400, 404, 413, 415, 422, 503)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"error": {"code": "too_many_copies", "message": "5 copies of 3p"}}]}
    )

    error: ErrorDetail


class Health(BaseModel):
    """The server is up; which tile model it loaded, and how busy it is."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "status": "ok",
                    "model": {"loaded": True, "name": "mjscan-tiles", "version": "1", "reader": "beeb9223"},
                    "rules": ["mcr", "riichi"],
                    "recognitions_running": 0,
                    "limits": {"max_upload_bytes": 20971520, "max_pixels": 50000000},
                }
            ]
        }
    )

    status: Literal["ok", "no_model"] = Field(description="ok, or no_model when recognition is unavailable")
    model: dict[str, Any] = Field(
        description="the tile model's info (name, version, classes, files) and the version of the code reading photos "
        "with it (reader), or its error"
    )
    rules: list[str] = Field(description="the rule sets that can be scored")
    recognitions_running: int = Field(description="photos being read right now or waiting for a worker")
    limits: dict[str, int] = Field(description="the upload limits in force")


class OptionInfo(BaseModel):
    """One option of a rule set."""

    model_config = ConfigDict(extra="allow")

    name: str
    type: Literal["bool", "int", "float", "str"]
    default: Any
    help: str
    choices: list[Any] | None = None
    origin: str = Field(description="source (the source documents) or common practice")


class FieldInfo(BaseModel):
    """A situation field of the hand JSON: what kind of value it takes, so that a page can draw a control."""

    name: str
    type: Literal["bool", "int", "wind", "seat", "suit", "tile", "tiles", "ints", "any"]
    default: Any
    choices: list[Any] | None = None
    help: str | None = None


class RuleSetInfo(BaseModel):
    """A rule set as ``mjscan rules --json`` shows it, plus ``fields``: the kinds of its situation fields.

    A game the sources name but that cannot be scored is listed with ``scorable: false`` and the reason in
    ``completeness``.
    """

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {
                    "name": "riichi",
                    "title": "Japanese Riichi (リーチ麻雀)",
                    "unit": "han",
                    "tiles": 14,
                    "scorable": True,
                    "completeness": "partial: ...",
                    "summary": "Every standard yaku and yakuman, dora, fu, limits and payments.",
                    "options": [
                        {
                            "name": "red_fives",
                            "type": "bool",
                            "default": True,
                            "help": "the red fives 0m 0p 0s are one dora each (aka dora)",
                            "origin": "common practice",
                        }
                    ],
                    "situation": ["self_drawn", "seat_wind", "riichi", "dora_indicators"],
                    "fields": [
                        {"name": "self_drawn", "type": "bool", "default": False},
                        {"name": "seat_wind", "type": "wind", "default": "E", "choices": ["E", "S", "W", "N"]},
                        {"name": "riichi", "type": "bool", "default": False},
                        {"name": "dora_indicators", "type": "tiles", "default": []},
                    ],
                }
            ]
        },
    )

    name: str
    title: str
    scorable: bool
    completeness: str
    unit: str | None = None
    tiles: int | None = Field(None, description="tiles in a winning hand, a kong counting 3")
    summary: str | None = None
    options: list[OptionInfo]
    situation: list[str] = Field(description="the hand fields this rule set reads besides the tiles")
    fields: list[FieldInfo] = Field(description="the situation fields with their kinds and defaults")


class ScoreRequest(BaseModel):
    """A hand to score: the hand JSON of contracts.md (or its compact form), a rule set and its options."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"rules": "riichi", "options": {"red_fives": True}, "hand": _EXAMPLE_HAND},
                {"rules": "mcr", "options": {"edition": "2006"}, "hand": "123m456p789s11z 234p"},
            ]
        }
    )

    rules: str = Field(description="a rule set name from GET /v1/rules")
    options: dict[str, Any] = Field(default_factory=dict, description="the rule set's options; others at defaults")
    hand: Any = Field(
        description="the hand object of contracts.md, or the compact form "
        '("123m456p789s11z 234p": concealed tiles with the winning tile last, then the melds); '
        "anything else is refused with 422",
        json_schema_extra={"anyOf": [{"type": "object"}, {"type": "string"}]},
    )


class ScoreItem(BaseModel):
    """One pattern counted."""

    model_config = ConfigDict(extra="allow")

    id: str
    name_en: str
    value: int
    count: int
    tiles: list[str]


class ScoreResponse(BaseModel):
    """The score JSON of contracts.md (riichi adds han, fu, fu_details and points)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [_EXAMPLE_SCORE]})

    ok: Literal[True]
    rules: str
    options: dict[str, Any]
    winning: bool
    unit: str
    total: int
    items: list[ScoreItem]
    arrangement: list[list[str]]
    payments: dict[str, Any]
    notes: list[str]


class ScoreRefusal(BaseModel):
    """A hand the rule set refuses to score, inside an analysis (the photo's hand may be incomplete)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"ok": False, "error": {"code": "wrong_tile_count", "message": "wrong tile count: ..."}}]
        }
    )

    ok: Literal[False]
    error: ErrorDetail


class Alternative(BaseModel):
    """Another code the classifiers found likely for a tile."""

    code: str
    probability: float


class Tile(BaseModel):
    """One tile found in the photo, in the photo's pixels (after EXIF orientation), and the other codes the
    classifiers found likeliest for it (at most 3, each with a probability of 0.02 or more, the likeliest first)."""

    code: str
    box: list[float] = Field(description="x1, y1, x2, y2")
    score: float
    rotated: bool
    alternatives: list[Alternative] = []


class HandTiles(BaseModel):
    """Which tiles (indices into ``tiles``) make each part of the hand."""

    concealed: list[int] = Field(description="in the order of the hand's concealed tiles")
    melds: list[list[int]] = Field(description="one list for each meld of the hand, its tiles as laid out")
    win_tile: int | None
    flowers: list[int] = Field(description="in the order of the hand's flowers")


class RecognitionResponse(BaseModel):
    """The recognition JSON of contracts.md; ``annotated_image`` (a JPEG data URL) with ``?annotate=true``."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={"examples": [{**_EXAMPLE_RECOGNITION, "annotated_image": _IMAGE_URL}]},
    )

    image: str
    width: int
    height: int
    tiles: list[Tile]
    hand: dict[str, Any] = Field(description="the hand of contracts.md: concealed, melds, win_tile, flowers")
    hand_tiles: HandTiles | None = None
    complete_with: list[str] = Field(
        [], description="the codes one more tile of which would complete a hand one tile short (a tile missed)"
    )
    warnings: list[str]
    timings_ms: dict[str, float]
    annotated_image: str | None = None


class AnalyzeResponse(BaseModel):
    """A photo recognised and scored. ``score`` is the refusal object when the recognised hand cannot be
    scored (correct the tiles and call POST /v1/score)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"recognition": _EXAMPLE_RECOGNITION, "score": _EXAMPLE_SCORE, "annotated_image": _IMAGE_URL}]
        }
    )

    recognition: RecognitionResponse
    score: ScoreResponse | ScoreRefusal
    annotated_image: str = Field(description="the photo with tiles, melds, winning tile and patterns (JPEG data URL)")
