"""A hand one misread tile short of complete is read with the code that completes it (``vision.complete``)."""

from __future__ import annotations

import numpy as np
import pytest
from scenes import scene

from vision.complete import ALT_MIN, is_complete, one_short
from vision.recognize import from_detections
from vision.types import CLASS_INDEX, Detections


def with_doubt(det: Detections, tile: int, **probs: float) -> Detections:
    """``det`` with the classifiers' probabilities of one tile shared as ``probs`` (codes, ``_`` for none)."""
    table = np.array(det.probs, np.float32)
    table[tile] = 0.0
    for code, p in probs.items():
        table[tile, CLASS_INDEX[code.lstrip("_")]] = p
    det.probs = table
    return det


def hand(concealed: str, win: str, melds: list[list[str]] | None = None) -> dict:
    return {
        "concealed": [concealed[i : i + 2] for i in range(0, len(concealed), 2)],
        "melds": [{"type": "chow", "tiles": m, "open": True} for m in melds or []],
        "win_tile": win,
        "flowers": [],
    }


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "complete"),
    [
        ("1m2m3m4p5p6p7s8s9s1z1z5z5z", "5z", None, True),
        ("1m2m3m4p5p6p7s8s9s1z1z5z5z", "6z", None, False),
        ("1m1m2m2m3p3p4p4p5s5s6s6s7z", "7z", None, True),  # seven pairs
        ("1m1m1m1m3p3p4p4p5s5s6s6s7z", "7z", None, True),  # four equal tiles as two pairs
        ("1m9m1p9p1s9s1z2z3z4z5z6z7z", "7z", None, True),  # thirteen orphans
        ("4p5p6p1z1z5z5z", "5z", [["1m", "2m", "3m"], ["7s", "8s", "9s"]], True),
        ("4p5p6p1z1z5z5z", "0p", [["1m", "2m", "3m"], ["7s", "8s", "9s"]], False),
        ("1m2m3m4m5m6m7m8m9m1p2p3p4p1z5z5z", "5z", None, False),  # 17 tiles but no shape
        ("1m2m3m4m5m6m7m8m9m1p2p3p4p1z1z5z", "5z", None, False),
        ("1m2m3m4m5m6m7m8m9m1p2p3p1z1z5z5z", "5z", None, True),  # 16-tile rules: five sets and a pair
        ("1m2m3m4p5p6p7s8s9s1z1z5z", "5z", None, False),  # 13 tiles
        ("1m1m1m1m2m3m4m5m6m7m8m9m9m", "1m", None, False),  # a fifth 1m
    ],
)
def test_complete_hands_are_told_by_size_copies_and_shape(concealed, win, melds, complete):
    assert is_complete(hand(concealed, win, melds)) is complete


def test_a_tile_whose_second_reading_completes_the_hand_is_read_so_and_flagged():
    det = with_doubt(scene("133m456p789s11z55z _ 5z"), 1, **{"3m": 0.55, "2m": 0.35, "8m": 0.05})
    recognition = from_detections(det, 1000, 1000)
    assert recognition.hand["concealed"][:3] == ["1m", "2m", "3m"]
    assert recognition.tiles[1].code == "2m"
    assert recognition.tiles[1].score == pytest.approx(0.95 * 0.35 / 0.55, abs=1e-3)
    assert "the hand was complete with one tile read 2m instead of 3m: read so (3m 0.55, 2m 0.35); check it" in (
        recognition.warnings
    )


def test_seven_pairs_are_completed_as_well():
    det = with_doubt(scene("1122m3344p5566s7z _ 6z"), 13, **{"6z": 0.6, "7z": 0.3})
    recognition = from_detections(det, 1000, 1000)
    assert recognition.hand["win_tile"] == "7z"


def test_a_meld_broken_by_a_misread_tile_is_mended_by_it():
    det = with_doubt(scene("123m456p11z55z _ 5z _ 789s"), 13, **{"8s": 0.45, "9s": 0.4})
    det.class_ids[13] = CLASS_INDEX["8s"]
    recognition = from_detections(det, 1000, 1000)
    assert recognition.hand["melds"] == [{"type": "chow", "tiles": ["7s", "8s", "9s"], "open": True}]
    assert not any("form no meld" in w for w in recognition.warnings)


def test_a_group_set_apart_one_misread_tile_from_a_meld_is_read_as_that_meld_and_flagged():
    det = with_doubt(scene("13579m2468p1s _ 5z _ 442p"), 13, **{"2p": 0.6, "4p": 0.3})  # a hand far from complete
    recognition = from_detections(det, 1000, 1000)
    assert recognition.hand["melds"] == [{"type": "pung", "tiles": ["4p", "4p", "4p"], "open": True}]
    assert recognition.tiles[13].code == "4p"
    assert recognition.tiles[13].score == pytest.approx(0.95 * 0.3 / 0.6, abs=1e-3)
    assert (
        "the tiles 442p formed no meld; with one tile read 4p instead of 2p they make one: read so (2p 0.60, 4p 0.30); "
        "check it" in recognition.warnings
    )
    assert not any("form no meld" in w for w in recognition.warnings)
    # two melds laid side by side, one of them broken
    det = with_doubt(scene("13579m2468p1s _ 5z _ 777z442p"), 16, **{"2p": 0.6, "4p": 0.3})
    assert from_detections(det, 1000, 1000).hand["melds"] == [
        {"type": "pung", "tiles": ["7z", "7z", "7z"], "open": True},
        {"type": "pung", "tiles": ["4p", "4p", "4p"], "open": True},
    ]
    # of two changes that make a meld, the likelier: 6p (456p) over 3p (453p)
    det = with_doubt(scene("13579m2468p1s _ 5z _ 457p"), 13, **{"7p": 0.5, "3p": 0.2, "6p": 0.25})
    assert from_detections(det, 1000, 1000).hand["melds"] == [
        {"type": "chow", "tiles": ["4p", "5p", "6p"], "open": True}
    ]


@pytest.mark.parametrize(
    ("text", "tile", "probs"),
    [
        ("13579m2468p1s _ 5z _ 442p", 13, {"2p": 0.95, "4p": ALT_MIN / 2}),  # the other code too unlikely
        ("13579m2468p1s _ 5z _ 472p", 13, {"2p": 0.6, "4p": 0.3}),  # one change makes no meld
        ("13579m2468p1s _ 5z _ 42p", 12, {"2p": 0.6, "4p": 0.3}),  # two tiles are no meld whatever they are
        ("13579m2468p1s _ 5z _ back 4p2p back", 14, {"2p": 0.6, "4p": 0.3}),  # a change of a face-up tile only
        ("1357m268p44p1s _ 5z _ 442p", 13, {"2p": 0.6, "4p": 0.3}),  # a fifth 4p: no set has one
    ],
)
def test_groups_not_one_likely_change_from_a_meld_are_left_as_read(text, tile, probs):
    before = from_detections(scene(text), 1000, 1000)
    after = from_detections(with_doubt(scene(text), tile, **probs), 1000, 1000)
    assert after.hand == before.hand and not after.hand["melds"]
    assert [t.code for t in after.tiles] == [t.code for t in before.tiles]
    assert not any("formed no meld;" in w for w in after.warnings)


@pytest.mark.parametrize(
    ("text", "tile", "probs"),
    [
        ("133m456p789s11z55z _ 5z", 1, {"3m": 0.9, "2m": ALT_MIN / 2}),  # the other code too unlikely
        ("123m456p789s11z55z _ 5z", 1, {"2m": 0.5, "3m": 0.45}),  # complete as read
        ("133m456p789s1z55z _ 5z", 1, {"3m": 0.5, "2m": 0.45}),  # 13 tiles: no change can complete it
        ("133m456p789s11z55z _ 6z", 1, {"3m": 0.5, "2m": 0.45}),  # two tiles short of complete
    ],
)
def test_hands_not_one_likely_change_from_complete_are_left_as_read(text, tile, probs):
    det = with_doubt(scene(text), tile, **probs)
    before = from_detections(scene(text), 1000, 1000)
    after = from_detections(det, 1000, 1000)
    assert after.hand == before.hand
    assert [t.code for t in after.tiles] == [t.code for t in before.tiles]
    assert not any("was complete with" in w for w in after.warnings)


def test_face_down_tiles_are_never_read_anew():
    det = scene("back 666m back _ 123m456p11z55z _ 5z")
    det = with_doubt(det, 0, back=0.5, **{"6m": 0.45})
    recognition = from_detections(det, 1000, 1000)
    assert not any("was complete with" in w for w in recognition.warnings)


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "codes"),
    [
        ("1m2m3m4p5p6p7s8s9s1z1z5z", "5z", None, ["1z", "5z"]),  # two pairs: either makes a pung
        ("1m2m3m4p5p6p7s8s9s1z1z2m", "3m", None, ["1m", "4m"]),  # 23m: an open wait, from the concealed tiles
        ("4p5p6p1z1z5z", "5z", [["1m", "2m", "3m"], ["7s", "8s", "9s"]], ["1z", "5z"]),
        ("1m1m2m2m3p3p4p4p5s5s6s6s", "7z", None, ["7z"]),  # seven pairs
        (
            "1m9m1p9p1s9s1z2z3z4z5z6z",
            "7z",
            None,
            ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"],
        ),
        ("1m1m1m1m2m3m4p5p6p7s8s9s", "5z", None, ["5z"]),  # a fifth 1m is no tile to wait on
        ("1m2m3m4p5p6p7s8s9s1z1z5z5z", "5z", None, []),  # complete already
        ("1m3m5m7m9m2p4p6p8p1s3s5s", "7s", None, []),  # one tile cannot complete it
    ],
)
def test_the_codes_that_complete_a_hand_one_tile_short(concealed, win, melds, codes):
    assert one_short(hand(concealed, win, melds)) == codes


def test_a_hand_one_tile_short_is_named_with_the_codes_that_complete_it():
    recognition = from_detections(scene("123m456p789s11z5z _ 5z"), 1000, 1000)
    assert recognition.complete_with == ["1z", "5z"]
    assert recognition.to_json()["complete_with"] == ["1z", "5z"]
    assert recognition.warnings[-2:] == [
        "found 13 tiles; a complete hand has 14",
        "the hand is one tile short of complete: one more 1z or 5z would complete it (a tile may have been missed)",
    ]
    assert from_detections(scene("123m456p789s11z55z _ 5z"), 1000, 1000).complete_with == []


def test_the_tables_hand_size_names_the_one_size_a_complete_hand_has():
    taiwanese = hand("1m2m3m4m5m6m7m8m9m1p2p3p1z1z5z5z", "5z")  # five sets and a pair: 17 tiles
    riichi = hand("1m2m3m4p5p6p7s8s9s1z1z5z5z", "5z")
    assert is_complete(taiwanese, 16) and not is_complete(taiwanese, 13)
    assert is_complete(riichi, 13) and not is_complete(riichi, 16)
    assert one_short(hand("1m2m3m4m5m6m7m8m9m1p2p3p1z1z5z", "5z"), 16) == ["1z", "5z"]
    assert one_short(hand("1m2m3m4m5m6m7m8m9m1p2p3p1z1z5z", "5z"), 13) == []
    with pytest.raises(ValueError, match="hand_size must be one of 13, 16, not 14"):
        is_complete(riichi, 14)
