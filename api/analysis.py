"""One photo to a scored hand: the function that `mjscan analyze` and `POST /v1/analyze` both call.

``analyze`` decodes the photo once (with the caller's pixel limit), recognises the tiles with the given model,
lays the situation over the recognised hand, scores it under a rule set and, when asked, draws the
recognition and the counted patterns on the photo. Callers check the rule set, options and situation first
(``check_rules``, ``check_situation``), so that a typo in ``--rules`` costs no decoding and no model load.

A hand the scorer refuses (the recognition found 13 tiles, say) is not an error of the analysis: the result
carries the refusal next to the recognition, so that a person can correct the tiles and score again.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring import Hand, Score, ScoringError, get
from scoring.ruleset import RuleSet
from vision.io import DEFAULT_MAX_PIXELS, DecodedImage, ImageSource

#: The most scoring patterns listed on an annotated photo; the rest are summed up in one line.
MAX_PATTERN_LINES = 12


class NoModel(RuntimeError):
    """The tile model is not there (or cannot be loaded): photos cannot be recognised, hands still scored."""

    code = "model_unavailable"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def load_model(model_dir: Path | None = None) -> Any:
    """The ONNX tile model, loaded once (``models/`` by default). Raises NoModel with the reason."""
    from vision.detector import ModelError, ModelNotFoundError, TileModel

    try:
        return TileModel(model_dir)
    except (ModelNotFoundError, ModelError) as exc:
        raise NoModel(str(exc)) from None


@dataclass
class Analysis:
    """What one photo gave: the recognition, the score or the scorer's refusal, and the annotated JPEG."""

    recognition: Any
    score: Score | None
    refusal: ScoringError | None
    annotated_jpeg: bytes | None

    def score_json(self) -> dict[str, Any]:
        """The score JSON of contracts.md, or its refusal object ``{"ok": false, "error": ...}``."""
        if self.score is not None:
            return self.score.to_json()
        assert self.refusal is not None
        return self.refusal.to_json()

    def to_json(self) -> dict[str, Any]:
        """The answer of ``POST /v1/analyze``: ``{"recognition", "score", "annotated_image"}``."""
        return {
            "recognition": self.recognition.to_json(),
            "score": self.score_json(),
            "annotated_image": data_url(self.annotated_jpeg) if self.annotated_jpeg is not None else None,
        }


def check_rules(rules: str, options: dict[str, Any] | None) -> tuple[RuleSet, dict[str, Any]]:
    """The rule set and its resolved options; OptionError (unknown_rules, unknown_option, bad_option)."""
    ruleset = get(rules)
    return ruleset, ruleset.resolve_options(options)


def hand_size_of(rules: str | None) -> int | None:
    """The tiles of a hand before its winning one under the rule set named (None for none), which the layout of a
    photo reads; OptionError (unknown_rules) for a name no rule set has."""
    return None if rules is None else get(rules).hand_size


def check_situation(situation: dict[str, Any]) -> None:
    """Refuse situation fields that no hand could carry (HandError): a wind that is no wind, and so on."""
    Hand.from_json(situation)


def recognize_photo(
    source: ImageSource,
    model: Any,
    *,
    name: str | None = None,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    hand_size: int | None = None,
) -> tuple[DecodedImage, Any]:
    """Decode a photo as the model reads it (a large JPEG at reduced scale) and recognise its tiles (a hand of
    ``hand_size`` tiles before the winning one where the rules are known: ``vision.recognize.recognize``).

    Raises ``vision.io.ImageError`` for a photo it cannot read, and NoModel when ``model`` is None (the photo
    is checked first, so that a bad upload is told so even where no model is installed).
    """
    from vision.recognize import decode_for_model, recognize

    decoded = decode_for_model(source, name=name, max_pixels=max_pixels)
    if model is None:
        raise NoModel("no tile model is loaded, so photos cannot be read (hands can still be scored)")
    return decoded, recognize(decoded, model=model, hand_size=hand_size)


def recognize(
    source: ImageSource,
    model: Any,
    *,
    name: str | None = None,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    annotate: bool = False,
    hand_size: int | None = None,
) -> tuple[Any, bytes | None]:
    """The recognition of a photo (its hand read as ``hand_size`` tiles where a rule set is named:
    ``recognize_photo``) and, when asked, the photo annotated with it (JPEG)."""
    decoded, recognition = recognize_photo(source, model, name=name, max_pixels=max_pixels, hand_size=hand_size)
    return recognition, annotated_jpeg(decoded, recognition) if annotate else None


def annotated_jpeg(decoded: DecodedImage, recognition: Any, lines: list[str] | None = None) -> bytes:
    """The photo with the recognition (and optional text lines) drawn on it, JPEG at most 1600 px."""
    from vision.annotate import annotate_jpeg

    return annotate_jpeg(decoded.rgb, recognition, lines=lines or [])


def analyze(
    source: ImageSource,
    model: Any,
    *,
    ruleset: RuleSet,
    options: dict[str, Any],
    situation: dict[str, Any] | None = None,
    name: str | None = None,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    annotate: bool = True,
) -> Analysis:
    """Recognise the hand in a photo and score it.

    ruleset and options: as ``check_rules`` gives them (check them, and the situation with
    ``check_situation``, before the photo is read); the photo's layout is read as a hand of the rule set's size
    (13 tiles before the winning one, 16 in Taiwanese rules). Raises ImageError for a photo that cannot be read
    and NoModel without a model. A recognised hand the rule set refuses comes back as ``Analysis.refusal``.
    """
    decoded, recognition = recognize_photo(source, model, name=name, max_pixels=max_pixels, hand_size=ruleset.hand_size)
    score: Score | None = None
    refusal: ScoringError | None = None
    try:
        hand = Hand.from_json({**recognition.to_json()["hand"], **(situation or {})})
        score = ruleset.score(hand, options)
    except ScoringError as exc:
        refusal = exc
    jpeg = annotated_jpeg(decoded, recognition, score_lines(score, refusal)) if annotate else None
    return Analysis(recognition, score, refusal, jpeg)


def score_lines(score: Score | None, refusal: ScoringError | None = None) -> list[str]:
    """The score as short text lines for the panel of an annotated photo."""
    if score is None:
        return [f"not scored: {refusal.message}"] if refusal is not None else []
    verdict = "" if score.winning else " (not a winning hand)"
    lines = [f"{score.rules}: {score.total} {score.unit}{verdict}"]
    for item in score.items[:MAX_PATTERN_LINES]:
        count = f" x{item.count}" if item.count != 1 else ""
        lines.append(f"{item.name_en} {item.value}{count}")
    hidden = len(score.items) - MAX_PATTERN_LINES
    if hidden > 0:
        lines.append(f"... and {hidden} more")
    return lines


def data_url(jpeg: bytes) -> str:
    """JPEG bytes as a ``data:image/jpeg;base64,...`` URL."""
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
