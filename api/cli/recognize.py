"""`mjscan recognize`: read the tiles and the hand in one or more photos.

mjscan recognize IMG_0412.jpg
mjscan recognize IMG_0412.jpg --json --annotate out.jpg
mjscan recognize photos/*.jpg --annotate annotated/            # a folder: <stem>.annotated.jpg in it
mjscan recognize photos/*.jpg --annotate 'annotated/{stem}-boxes.jpg' --json
mjscan recognize IMG_0413.jpg --rules taiwan16                 # a hand of that table's size (16 + 1 tiles)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from vision.layout import compact
from vision.types import CLASS_INDEX

#: The file name written for each photo when --annotate names a folder.
FOLDER_NAME = "{stem}.annotated.jpg"


class _Refusal(Exception):
    """Arguments that cannot work, found before any photo is read."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("photos", nargs="+", type=Path, metavar="PHOTO", help="photos (JPEG, PNG, WebP or HEIC)")
    p.add_argument("--json", action="store_true", help="print the recognition JSON (a list for several photos)")
    p.add_argument(
        "--annotate",
        metavar="OUT",
        help="write each photo with its tiles drawn: OUT.jpg for one photo; for several, a folder "
        f"({FOLDER_NAME} in it) or a pattern with {{stem}} such as 'out/{{stem}}-tiles.jpg'",
    )
    p.add_argument(
        "--rules",
        help="read each hand as a table of these rules holds it: its size (16 tiles and the winning one in "
        "taiwan16, 13 and one in the others; see `mjscan rules`); without it, either",
    )
    p.add_argument("--overwrite", action="store_true", help="let --annotate replace existing files")
    p.add_argument("--model-dir", type=Path, help="folder of the tile model (default: the models/ that ships)")
    p.add_argument("--max-pixels", type=int, help="largest picture decoded, in pixels (default: 50 megapixels)")


def run(args: argparse.Namespace) -> int:
    from vision.io import DEFAULT_MAX_PIXELS

    try:
        hand_size = _hand_size(args.rules)
        targets = annotate_targets(args.photos, args.annotate, args.overwrite)
        model = _load_model(args.model_dir)
    except _Refusal as exc:
        print(f"mjscan recognize: {exc}", file=sys.stderr)
        return 1
    from tqdm import tqdm

    results: list[dict[str, Any]] = []
    failed = False
    quiet = not args.json or len(args.photos) == 1  # text output shows its own progress, photo by photo
    for photo in tqdm(args.photos, desc="recognize", unit="photo", disable=True if quiet else None, leave=False):
        out = targets.get(photo)
        result = _one(photo, model, args.max_pixels or DEFAULT_MAX_PIXELS, out, hand_size)
        failed |= "error" in result
        results.append(result)
        if "error" in result:
            print(f"mjscan recognize: {photo}: {result['error']['message']}", file=sys.stderr)
        elif not args.json:
            print(describe(result))
        if out is not None and "error" not in result:
            print(f"wrote {out}", file=sys.stderr if args.json else sys.stdout)
    if args.json:
        shown = [r for r in results if "error" not in r] if len(results) == 1 else results
        if shown:
            print(json.dumps(shown if len(args.photos) > 1 else shown[0], ensure_ascii=False, indent=2))
    return 1 if failed else 0


def _hand_size(rules: str | None) -> int | None:
    """The hand size of the rule set named (``api.analysis.hand_size_of``); refuses a name no rule set has."""
    from api.analysis import hand_size_of
    from scoring import ScoringError

    try:
        return hand_size_of(rules)
    except ScoringError as exc:
        raise _Refusal(exc.message) from None


def _load_model(model_dir: Path | None) -> Any:
    from vision.detector import ModelError, ModelNotFoundError, TileModel
    from vision.recognize import default_model

    try:
        return TileModel(model_dir) if model_dir is not None else default_model()
    except (ModelNotFoundError, ModelError) as exc:
        raise _Refusal(str(exc)) from None


def _one(photo: Path, model: Any, max_pixels: int, out: Path | None, hand_size: int | None) -> dict[str, Any]:
    """One photo's recognition JSON (``annotated_image`` names the file written; the hand read as ``hand_size``
    tiles where given), or ``{"image", "error"}``."""
    from vision.annotate import annotate_jpeg
    from vision.io import ImageError
    from vision.recognize import decode_for_model, recognize

    try:
        decoded = decode_for_model(photo, max_pixels=max_pixels)
        recognition = recognize(decoded, model=model, hand_size=hand_size)
    except ImageError as exc:
        return {"image": photo.name, **exc.to_json()}
    result = recognition.to_json()
    if out is not None:
        try:
            write_new(out, annotate_jpeg(decoded.rgb, recognition))
        except OSError as exc:
            message = f"cannot write {out}: {exc.strerror or exc}"
            return {"image": photo.name, "error": {"code": "cannot_write", "message": message}}
        result["annotated_image"] = str(out)
    return result


def annotate_targets(photos: list[Path], annotate: str | None, overwrite: bool) -> dict[Path, Path]:
    """The annotated file of each photo, checked before anything is read or written: never a photo itself,
    never two photos to one file, never an existing file without ``overwrite``, always a .jpg."""
    if annotate is None:
        return {}
    spec = Path(annotate)
    as_folder = annotate.endswith(("/", os.sep)) or spec.is_dir() or (len(photos) > 1 and "{stem}" not in annotate)
    if as_folder and spec.suffix.lower() in (".jpg", ".jpeg") and not spec.is_dir():
        raise _Refusal(
            f"--annotate {annotate} names one file for {len(photos)} photos: give a folder, "
            "or a pattern with {stem} such as 'out/{stem}-tiles.jpg'"
        )
    targets: dict[Path, Path] = {}
    for photo in photos:
        if as_folder:
            out = spec / FOLDER_NAME.format(stem=photo.stem)
        elif "{stem}" in annotate:
            out = Path(annotate.replace("{stem}", photo.stem))
        else:
            out = spec
        targets[photo] = out
    inputs = {p.resolve() for p in photos if p.exists()}
    seen: dict[Path, Path] = {}
    for photo, out in targets.items():
        if out.suffix.lower() not in (".jpg", ".jpeg"):
            raise _Refusal(f"--annotate writes JPEG files: {out} should end in .jpg")
        resolved = out.resolve()
        if resolved in inputs:
            raise _Refusal(f"--annotate would write over the photo {out}: name another file")
        if resolved in seen:
            raise _Refusal(
                f"{seen[resolved]} and {photo} would both be annotated to {out}: use a pattern with {{stem}}"
            )
        seen[resolved] = photo
        if out.exists() and not overwrite:
            raise _Refusal(f"{out} exists: name another file or folder, or add --overwrite")
        if as_folder and spec.exists() and not spec.is_dir():
            raise _Refusal(f"--annotate {spec} is a file, not a folder")
        if not as_folder and not out.parent.is_dir():
            raise _Refusal(f"--annotate {out}: the folder {out.parent} does not exist")
    if as_folder:
        try:
            spec.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _Refusal(f"cannot create the folder {spec}: {exc.strerror or exc}") from None
    return targets


def write_new(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a temporary file beside it, then renamed)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def describe(rec: dict[str, Any]) -> str:
    """A recognition as text: the tiles, the hand (in the compact form `mjscan score` reads), warnings, times."""
    hand = rec["hand"]
    codes = sorted((t["code"] for t in rec["tiles"]), key=lambda c: CLASS_INDEX.get(c, len(CLASS_INDEX)))
    lines = [f"{rec['image']}: {rec['width']} x {rec['height']}, {len(rec['tiles'])} tiles"]
    lines.append(f"  tiles:    {compact(codes) or '-'}")
    lines.append(f"  hand:     {hand_text(hand) or '-'}")
    details = []
    if hand.get("win_tile"):
        details.append(f"winning tile {hand['win_tile']}")
    for meld in hand.get("melds", []):
        details.append(_meld_text(meld))
    if hand.get("flowers"):
        details.append(f"flowers {compact(hand['flowers'])}")
    if details:
        lines.append("            " + "; ".join(details))
    lines.extend(f"  warning:  {w}" for w in rec["warnings"])
    t = rec["timings_ms"]
    lines.append(
        f"  time:     decode {t['decode']:.0f} ms, detect {t['detect']:.0f} ms, classify {t['classify']:.0f} ms, "
        f"total {t['total']:.0f} ms"
    )
    return "\n".join(lines)


def hand_text(hand: dict[str, Any]) -> str:
    """The hand in the compact form of `mjscan score`: concealed tiles in tile order and flowers with the
    winning tile last, then each meld (``[7777z]`` a concealed kong, ``2222p+`` an added kong)."""
    concealed = sorted(hand.get("concealed", []), key=lambda c: CLASS_INDEX.get(c, len(CLASS_INDEX)))
    first = concealed + list(hand.get("flowers", []))
    if hand.get("win_tile"):
        first.append(hand["win_tile"])
    parts = [compact(first)]
    for meld in hand.get("melds", []):
        text = compact(meld["tiles"])
        parts.append(f"[{text}]" if not meld.get("open", True) else text + ("+" if meld.get("added") else ""))
    return " ".join(p for p in parts if p)


def _meld_text(meld: dict[str, Any]) -> str:
    text = f"{meld['type']} {compact(meld['tiles'])}"
    if not meld.get("open", True):
        return text + " concealed"
    if meld.get("from"):
        text += f" ({meld['called']} from {meld['from']})"
    return text + (" added" if meld.get("added") else "")
