"""The faces printed from fonts for the synthetic sets (``vision/training/faces.py``).

These need a font holding the tiles' Chinese characters (Debian's fonts-noto-cjk, which `.ci/run` installs with
Chromium); without one they are skipped, saying so.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from vision.training import synth
from vision.training.faces import (
    DEFAULT_FONT_FOLDER,
    DOT_INKS,
    DOT_LAYOUTS,
    FACE_H,
    FACE_W,
    STICK_LAYOUTS,
    UNSEEN_DOTS,
    UNSEEN_STICKS,
    FacePrinter,
    FontError,
    to_texture,
)
from vision.types import CLASS_INDEX, CLASSES

PRINTED = [c for c in CLASSES if c not in ("1s", "back")]


@pytest.fixture(scope="module")
def printer() -> FacePrinter:
    try:
        return FacePrinter.from_folder(DEFAULT_FONT_FOLDER)
    except FontError as exc:
        pytest.skip(f"no CJK font installed: {exc}")


def test_a_folder_without_fonts_is_refused_naming_what_to_install(tmp_path: Path):
    (tmp_path / "notes.ttf").write_text("not a font")
    with pytest.raises(FontError, match="apt-get install fonts-noto-cjk"):
        FacePrinter.from_folder(tmp_path)


def test_fonts_lacking_the_tiles_characters_are_left_out(printer: FacePrinter):
    latin = [p for p in Path(DEFAULT_FONT_FOLDER).rglob("DejaVuSans.ttf")]
    assert all(font not in printer.fonts for font in latin)
    assert printer.fonts


def test_layouts_give_each_number_its_count_of_dots_and_sticks():
    assert {n: len(v) for n, v in DOT_LAYOUTS.items()} == {n: n for n in range(1, 10)}
    assert {n: len(v) for n, v in DOT_INKS.items()} == {n: n for n in range(1, 10)}
    assert {n: len(v) for n, v in STICK_LAYOUTS.items()} == {n: n for n in range(2, 10)}


def test_every_printable_tile_gets_a_visible_face_and_tiles_differ(printer: FacePrinter):
    rng = np.random.default_rng(1)
    style = printer.style(rng)
    faces = {code: printer.face(rng, code, style) for code in PRINTED}
    for code, rgba in faces.items():
        assert rgba.shape == (FACE_H, FACE_W, 4) and rgba.dtype == np.uint8
        if code == "5z" and style.white_dragon == "blank":
            assert rgba[..., 3].max() == 0  # a blank white dragon prints nothing
        else:
            assert (rgba[..., 3] > 128).mean() > 0.01, f"{code} prints nothing"
    inks = {code: rgba[..., 3] > 128 for code, rgba in faces.items()}
    for a, b in (("2p", "4p"), ("3m", "5m"), ("6s", "9s"), ("1z", "3z"), ("5m", "0m")):
        differ = (inks[a] != inks[b]).mean() > 0.01 or not np.array_equal(faces[a][..., :3], faces[b][..., :3])
        assert differ, f"{a} and {b} print alike"


def test_red_fives_are_printed_red(printer: FacePrinter):
    rng = np.random.default_rng(2)
    style = printer.style(rng)
    for code in ("0m", "0p", "0s"):
        rgba = printer.face(rng, code, style)
        ink = rgba[..., :3][rgba[..., 3] > 200].astype(float)
        assert ink[:, 0].mean() > ink[:, 1].mean() + 80, code


def test_the_bird_is_not_printed(printer: FacePrinter):
    with pytest.raises(ValueError, match="bird"):
        printer.face(np.random.default_rng(0), "1s", printer.style(np.random.default_rng(0)))


def test_prints_vary_between_sets(printer: FacePrinter):
    rng = np.random.default_rng(3)
    looks = [printer.face(rng, "8p", printer.style(rng)) for _ in range(6)]
    assert len({look.tobytes() for look in looks}) == 6


def test_sets_drawn_unseen_make_the_same_draws_and_draw_only_the_dots_and_bamboo_otherwise(printer: FacePrinter):
    unseen = FacePrinter(printer.fonts, unseen_drawings=True)
    for seed in range(6):
        seen_rng, unseen_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        seen_style, unseen_style = printer.style(seen_rng), unseen.style(unseen_rng)
        # the same random draws, so one seed renders the same scenes both ways
        assert seen_rng.integers(1 << 30) == unseen_rng.integers(1 << 30)
        assert unseen_style.dot_kind == UNSEEN_DOTS[seen_style.dot_kind]
        assert unseen_style.stick_kind == UNSEEN_STICKS[seen_style.accent_sticks] != seen_style.stick_kind
        fonts = {"numeral_font": unseen_style.numeral_font, "symbol_font": unseen_style.symbol_font}
        assert [font.path for font in fonts.values()] == [seen_style.numeral_font.path, seen_style.symbol_font.path]
        kinds = {"dot_kind": unseen_style.dot_kind, "stick_kind": unseen_style.stick_kind}
        assert dataclasses.replace(seen_style, **fonts, **kinds) == unseen_style
        for code in ("2p", "9p", "0p", "2s", "8s", "3m", "1z", "6z", "2f"):
            seen_face = printer.face(np.random.default_rng(0), code, seen_style)
            unseen_face = unseen.face(np.random.default_rng(0), code, unseen_style)
            assert (unseen_face[..., 3] > 128).mean() > 0.01, f"{code} drawn unseen prints nothing"
            same = np.array_equal(seen_face, unseen_face)
            assert same == (code[1] not in "ps"), code


def test_texture_lays_the_print_on_the_face_colour():
    rgba = np.zeros((FACE_H, FACE_W, 4), np.uint8)
    rgba[100:200, 80:160] = (200, 30, 30, 255)
    tex = to_texture(rgba, np.array([240.0, 235, 220]), (120, 160))
    assert tex.shape == (160, 120, 3)
    assert tuple(tex[5, 5]) == (240, 235, 220)
    assert tuple(tex[75, 60]) == (200, 30, 30)


def test_printed_sets_in_scenes_take_their_share(printer: FacePrinter):
    """``printed_faces`` is the share of sets printed from fonts; every tile of such a set (but the bird of the
    one of bamboo) comes from its print."""
    from tests.vision.test_training import small_pool

    art = small_pool().art
    pool = synth.FacePool(art, [], printer=printer, printed_faces=0.4)
    rng = np.random.default_rng(4)
    kinds = [pool.tile_set(rng).faces for _ in range(400)]
    assert abs(kinds.count("printed") / 400 - 0.4) < 0.07
    tile_set = pool.tile_set(rng, "printed")
    assert tile_set.print_style is not None
    face = pool.face(rng, CLASS_INDEX["7p"], tile_set)
    assert face.texture.shape == (synth.TEX_H, synth.TEX_W, 3) and face.oriented
    assert pool.face(rng, CLASS_INDEX["1s"], tile_set).class_id == CLASS_INDEX["1s"]
    assert synth.FacePool(art, [], printed_faces=0.4).printed_faces == 0.0  # no printer, no printed sets


def test_indexed_sets_print_a_corner_index_and_keep_the_face_apart(printer: FacePrinter):
    """Some sets carry a small index in the top left corner (the number, E S W N, letters for the dragons); the
    rest of the face moves aside for it."""
    rng = np.random.default_rng(5)
    style = printer.style(rng)
    plain = dataclasses.replace(style, index="")
    indexed = dataclasses.replace(style, index="PFC")
    for code in ("3m", "2p", "1z", "7z"):  # faces whose print leaves the corner bare
        ink_plain = printer.face(rng, code, plain)[..., 3] > 128
        ink_indexed = printer.face(rng, code, indexed)[..., 3] > 128
        corner = (slice(0, int(FACE_H * 0.2)), slice(0, int(FACE_W * 0.22)))
        assert ink_indexed[corner].mean() > ink_plain[corner].mean() + 0.02, code
