"""The layout rules: synthetic tile layouts (tests/vision/scenes.py) to the hand and its warnings."""

from __future__ import annotations

import numpy as np
import pytest
from labelled import SAMPLE, photos
from scenes import scene

from vision.evaluate import read_classes, read_yolo_labels
from vision.layout import UNORIENTED, drop_duplicates, meld_shape, read_layout, split_melds
from vision.types import CLASS_INDEX, Detections

FULL = "123m456p789s1z _ 1z"  # 13 concealed tiles + the winning tile set apart, before melds are added


def hand(text: str, angle: float = 0.0, **kw: float) -> dict:
    return read_layout(scene(text, angle, **kw)).hand


def test_one_row_with_the_winning_tile_set_apart():
    layout = read_layout(scene("123m456p789s11z55z _ 5z"))
    assert layout.hand == {
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"],
        "melds": [],
        "win_tile": "5z",
        "flowers": [],
    }
    assert layout.warnings == []


def test_no_tile_set_apart_takes_the_rightmost_as_winning_tile_with_a_warning():
    layout = read_layout(scene("123m456p789s11z555z"))
    assert layout.hand["win_tile"] == "5z"
    assert len(layout.hand["concealed"]) == 13
    assert layout.warnings == ["no tile set apart: took the rightmost tile 5z as the winning tile"]


def test_thirteen_tiles_warn_that_a_hand_has_fourteen():
    layout = read_layout(scene("123m456p789s11z5z _ 5z"))
    assert "found 13 tiles; a complete hand has 14" in layout.warnings


def test_sixteen_tile_hands_are_complete_at_seventeen():
    layout = read_layout(scene("123456789m1234p1z55z _ 5z"))
    assert len(layout.hand["concealed"]) == 16
    assert layout.warnings == []


def test_gap_separated_groups_in_the_row_are_melds():
    h = hand("123m456p11z _ 9s _ 234s _ 777z")
    assert h["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "1z", "1z"]
    assert h["win_tile"] == "9s"
    assert h["melds"] == [
        {"type": "chow", "tiles": ["2s", "3s", "4s"], "open": True},
        {"type": "pung", "tiles": ["7z", "7z", "7z"], "open": True},
    ]


def test_a_meld_parted_by_a_gap_under_a_tile_is_one_meld():
    # a slanted view or a steep perspective opens gaps inside melds: 2s | 34s and 7z | 77z
    layout = read_layout(scene("123m456p1z _ 9s _ 2s _ 34s _ 7z _ 77z"))
    assert layout.hand["win_tile"] == "9s"
    assert layout.hand["melds"] == [
        {"type": "chow", "tiles": ["2s", "3s", "4s"], "open": True},
        {"type": "pung", "tiles": ["7z", "7z", "7z"], "open": True},
    ]
    assert layout.warnings == []
    flat = read_layout(scene("123m456p789s1z _ 1z _ 4m _ 4m _ 4m"))  # flat tiles beside standing ones look apart
    assert flat.hand["melds"] == [{"type": "pung", "tiles": ["4m", "4m", "4m"], "open": True}]
    assert flat.hand["win_tile"] == "1z" and flat.warnings == []
    second_row = read_layout(scene("7z _ 77z _ 2s _ 34s / 123m456p789s1z _ 1z"))
    assert [m["tiles"] for m in second_row.hand["melds"]] == [["7z", "7z", "7z"], ["2s", "3s", "4s"]]
    assert second_row.hand["win_tile"] == "1z"


def test_groups_further_apart_than_a_tile_or_the_concealed_tiles_are_not_joined():
    wide = read_layout(scene("123m456p789s1z _ 1z _ 2s _ 34s", gap=1.5))
    assert wide.hand["melds"] == [] and wide.hand["win_tile"] == "1z"
    assert any("34s set apart from the concealed tiles form no meld" in w for w in wide.warnings)
    # the concealed tiles and the winning tile set apart make a chow, and stay what they are
    assert hand("12m _ 3m") == {"concealed": ["1m", "2m"], "melds": [], "win_tile": "3m", "flowers": []}


def test_a_winning_tile_laid_against_the_meld_beside_it_is_told_apart():
    # the gap between the winning tile and the meld is not seen: the group set apart is no meld, but melds after
    # its first tile
    layout = read_layout(scene("123m456p789s1z _ 1z234s"))
    assert layout.hand["win_tile"] == "1z"
    assert layout.hand["melds"] == [{"type": "chow", "tiles": ["2s", "3s", "4s"], "open": True}]
    assert layout.hand["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z"]
    assert layout.warnings == [
        "1z lies against the meld beside it: took it as the winning tile, set apart at the right of the concealed tiles"
    ]
    # a group of a tile and a meld to the left of the concealed tiles stays what it was
    left = read_layout(scene("1z234s _ 123m456p789s1z _ 1z"))
    assert left.hand["melds"] == [] and left.hand["win_tile"] == "1z"


@pytest.mark.parametrize("gap", [0.25, 0.3])
def test_a_meld_parted_from_the_concealed_tiles_by_a_narrow_gap_is_a_meld(gap):
    # perspective narrows the gap before a meld under GAP; the widest of the row by far, it still parts it
    layout = read_layout(scene("123m456p789s1z1z _ 777z", gap=gap))
    assert layout.hand["melds"] == [{"type": "pung", "tiles": ["7z", "7z", "7z"], "open": True}]
    assert layout.hand["win_tile"] == "1z" and len(layout.hand["concealed"]) == 10
    # the winning tile's own gap, as narrow, does not hide it
    layout = read_layout(scene("123m456p789s1z _ 1z _ 7777z", gap=gap))
    assert layout.hand["melds"] == [{"type": "kong", "tiles": ["7z"] * 4, "open": True}]
    assert layout.hand["win_tile"] == "1z"


def test_a_meld_shape_ending_the_concealed_tiles_stays_concealed_without_a_wider_gap():
    for text, gap in (("123m456p789s1z1z _ 777z", 0.1), ("123m456p7s _ 8s9s _ 1z1z _ 777z", 0.25)):
        layout = read_layout(scene(text, gap=gap))
        assert layout.hand["melds"] == [], text
        assert len(layout.hand["concealed"]) == 13


def test_melds_in_a_second_row():
    h = hand("234s 777z _ 5555m / 123m456p1z _ 1z")
    assert h["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "1z"]
    assert h["win_tile"] == "1z"
    assert [m["type"] for m in h["melds"]] == ["chow", "pung", "kong"]
    assert all(m["open"] for m in h["melds"])


def test_a_sideways_tile_marks_the_claimed_tile_and_who_discarded_it():
    h = hand("123m456p1z _ 1z _ 4s>56s _ 7z7z>7z _ 99p9p>")
    left, across, right = h["melds"]
    assert left == {"type": "chow", "tiles": ["4s", "5s", "6s"], "open": True, "called": "4s", "from": "left"}
    assert (across["called"], across["from"]) == ("7z", "across")
    assert (right["type"], right["called"], right["from"]) == ("pung", "9p", "right")


def test_open_kong_with_a_sideways_tile():
    (kong,) = hand("123m456p1z _ 1z _ 3m3m3m3m>")["melds"]
    assert kong == {"type": "kong", "tiles": ["3m"] * 4, "open": True, "called": "3m", "from": "right"}


def test_a_kong_with_face_down_tiles_at_its_ends_is_concealed():
    h = hand("123m456p1z _ 1z _ back7z7zback _ 234s")
    assert h["melds"][0] == {"type": "kong", "tiles": ["7z"] * 4, "open": False}
    assert h["melds"][1]["type"] == "chow"


def test_a_concealed_kong_of_red_fives_keeps_one_red_five():
    (kong,) = hand("123m456p1z _ 1z _ back0p5pback _ 234s")["melds"][:1]
    assert sorted(kong["tiles"]) == ["0p", "5p", "5p", "5p"]


def test_a_tile_stacked_on_a_sideways_tile_makes_an_added_kong():
    (kong,) = hand("123m456p789s1z _ 1z / 2p2p>^2p")["melds"]
    assert kong == {"type": "kong", "tiles": ["2p"] * 4, "open": True, "called": "2p", "from": "across", "added": True}


def test_four_equal_tiles_set_apart_are_a_kong():
    (kong,) = hand(FULL + " _ 8888s")["melds"]
    assert kong == {"type": "kong", "tiles": ["8s"] * 4, "open": True}
    # evenly spread (perspective opens the gaps): still one kong, not a pung and a tile beside it
    (spread,) = hand(FULL + " _ 8s _ 8s _ 8s _ 8s")["melds"]
    assert spread == kong


def test_a_meld_lying_flat_in_front_of_standing_tiles_is_a_row_of_its_own():
    # seen from low down, a pung lying flat in front of the first standing tiles has its centres near theirs
    # across the row: one row by the split across, in which the flat tiles overlap the standing ones
    boxes = [(31.0 * k, 0.0, 31.0 * k + 30, 40.0) for k in range(10)] + [(330.0, 0.0, 360.0, 40.0)]
    boxes += [(5.0 + 31 * k, 30.0, 35.0 + 31 * k, 48.0) for k in range(3)]
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "5z", "7z", "7z", "7z"]
    det = Detections(
        np.array(boxes, np.float32),
        np.full(len(boxes), 0.9, np.float32),
        np.array([CLASS_INDEX[c] for c in codes], np.int64),
        np.zeros(len(boxes), bool),
    )
    layout = read_layout(det)
    assert layout.hand == {
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z"],
        "melds": [{"type": "pung", "tiles": ["7z", "7z", "7z"], "open": True}],
        "win_tile": "5z",
        "flowers": [],
    }
    assert layout.warnings == []


def far_and_small(size: float, distance: float) -> Detections:
    """A hand of 14 tiles (boxes 30 x 40) a row nearer the camera than 4 tiles of ``size`` times theirs,
    ``distance`` pixels across from it (discards in the middle of the table)."""
    boxes = [(32.0 * k, 400.0, 32.0 * k + 30, 440.0) for k in range(13)] + [(440.0, 400.0, 470.0, 440.0)]
    w, h = 30 * size, 40 * size
    boxes += [(100.0 + 40 * k, 400.0 - distance, 100 + 40 * k + w, 400.0 - distance + h) for k in range(4)]
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z", "5z", "3s", "9p", "2z", "8m"]
    return Detections(
        np.array(boxes, np.float32),
        np.full(len(boxes), 0.9, np.float32),
        np.array([CLASS_INDEX[c] for c in codes], np.int64),
        np.zeros(len(boxes), bool),
    )


def test_smaller_tiles_far_across_from_the_hand_are_left_out_of_it():
    layout = read_layout(far_and_small(0.7, 200.0))
    assert layout.hand["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"]
    assert layout.hand["win_tile"] == "5z" and layout.hand["melds"] == []
    assert [g.tiles for g in layout.groups if g.role == "apart"] == [(14, 15, 16, 17)]
    assert any("4 tiles 3s9p2z8m lying far from the hand" in w for w in layout.warnings)
    # one or two tiles far across from the hand are far off, whatever their size; three may be a meld of its own
    for n, distance, far in ((1, 200.0, True), (2, 200.0, True), (3, 200.0, False), (1, 90.0, False)):
        det = far_and_small(1.0, distance)
        layout = read_layout(det.subset(np.arange(len(det.boxes)) < 14 + n))
        assert any("lying far from the hand" in w for w in layout.warnings) == far, (n, distance)
    # as near the camera (a second row of the hand's own), or near the hand: not far off (beside a hand of 14 they
    # are still no part of it: "test_tiles_beyond_a_hand_in_no_meld_are_left_out_as_the_discards")
    for near in (far_and_small(1.0, 200.0), far_and_small(0.7, 120.0)):
        layout = read_layout(near)
        assert not any("lying far from the hand" in w for w in layout.warnings)
        short = read_layout(near.subset(np.arange(18) >= 4))  # the hand without four of its tiles keeps them
        assert not any(g.role == "apart" for g in short.groups)
        assert "3s" in short.hand["concealed"] + [short.hand["win_tile"]]


def beside_the_hand(codes: list[str], across: list[float], step: float = 40.0, hand: int = 14) -> Detections:
    """The first ``hand`` tiles of the hand of ``far_and_small`` (boxes 30 x 40) with tiles ``codes`` as large as
    its own about 120 pixels across from it, each ``across`` pixels further off and ``step`` pixels after the one
    before along the row."""
    det = far_and_small(1.0, 200.0).subset(np.arange(18) < hand)
    boxes = [(100.0 + step * k, 280.0 - up, 130.0 + step * k, 320.0 - up) for k, up in enumerate(across)]
    ids = [CLASS_INDEX[c] for c in codes]
    return Detections(
        np.concatenate([det.boxes, np.array(boxes, np.float32)]),
        np.full(hand + len(codes), 0.9, np.float32),
        np.concatenate([det.class_ids, np.array(ids, np.int64)]),
        np.zeros(hand + len(codes), bool),
    )


def test_tiles_beyond_a_hand_in_no_meld_are_left_out_as_the_discards():
    # five discards strewn a few tiles off a hand of 14: as large as its tiles, so not "far", and in no meld
    for across in ([0.0, 20.0, 40.0, 10.0, 35.0], [0.0] * 5):
        layout = read_layout(beside_the_hand(["3s", "9p", "2z", "8m", "6p"], across))
        assert layout.hand == {
            "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"],
            "melds": [],
            "win_tile": "5z",
            "flowers": [],
        }
        assert sorted(i for g in layout.groups if g.role == "apart" for i in g.tiles) == [14, 15, 16, 17, 18]
        assert layout.warnings == [
            "5 tiles 3s9p2z8m6p lying apart from the hand's rows in no meld (the discards) left out of it: the hand "
            "holds a hand's tiles without them"
        ]
    # a hand read a tile short (13, its winning tile missed) still sheds them, and takes its winning tile in its row
    layout = read_layout(beside_the_hand(["3s", "9p", "2z", "8m", "6p"], [0.0] * 5, hand=13))
    assert len(layout.hand["concealed"]) == 12 and any(g.role == "apart" for g in layout.groups)
    # tiles beside a hand that is short without them are its own (concealed tiles in two rows, a heap)
    layout = read_layout(beside_the_hand(["3s", "9p", "2z", "8m", "6p"], [0.0] * 5, hand=9))
    assert not any(g.role == "apart" for g in layout.groups)
    hand = layout.hand
    assert len(hand["concealed"]) + 1 + sum(len(m["tiles"]) for m in hand["melds"]) == 14
    # tiles that make a meld are the hand's meld
    layout = read_layout(beside_the_hand(["5p", "5p", "5p"], [0.0, 20.0, 40.0], step=31.0))
    assert layout.hand["melds"] == [{"type": "pung", "tiles": ["5p", "5p", "5p"], "open": True}]
    assert not any(g.role == "apart" for g in layout.groups)


def test_a_sideways_tile_seen_from_low_down_keeps_its_kong_whole():
    # every tile lies flat, seen from low down: boxes 26 x 16 a pixel apart, the kong's claimed tile 34 x 13; sized
    # by the row's proportions the sideways tile looked as long as the others, and the gap before it wide
    # enough to part the kong into a pung and a tile
    boxes = [(27.0 * k, 0.0, 27.0 * k + 26, 16.0) for k in range(10)] + [(284.0, 0.0, 310.0, 16.0)]
    boxes += [
        (345.0, 0.0, 371.0, 16.0),
        (372.0, 0.0, 398.0, 16.0),
        (399.0, 0.0, 425.0, 16.0),
        (426.0, 3.0, 460.0, 16.0),
    ]
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "5z", "1p", "1p", "1p", "1p"]
    det = Detections(
        np.array(boxes, np.float32),
        np.full(len(boxes), 0.9, np.float32),
        np.array([CLASS_INDEX[c] for c in codes], np.int64),
        np.arange(len(boxes)) == len(boxes) - 1,
    )
    layout = read_layout(det)
    assert layout.hand["melds"] == [
        {"type": "kong", "tiles": ["1p"] * 4, "open": True, "called": "1p", "from": "right"}
    ]
    assert layout.hand["win_tile"] == "5z" and len(layout.hand["concealed"]) == 10
    assert layout.warnings == []


def test_melds_laid_side_by_side_without_a_gap_are_split_by_shape():
    h = hand("1111m234m / 123p456p1z _ 1z")
    assert [(m["type"], m["tiles"][0]) for m in h["melds"]] == [("kong", "1m"), ("chow", "2m")]


def test_a_meld_touching_the_concealed_tiles_is_cut_off_at_its_sideways_tile():
    layout = read_layout(scene("123m456p789s1z1z _ 5z _ 7z7z>7z"))
    assert layout.hand["melds"][0]["called"] == "7z"
    layout = read_layout(scene("123m456p789s1z1z7z7z>7z _ 5z"))
    assert layout.hand["melds"] == [
        {"type": "pung", "tiles": ["7z"] * 3, "open": True, "called": "7z", "from": "across"}
    ]
    assert layout.hand["win_tile"] == "5z"
    assert any("touches other tiles" in w for w in layout.warnings)


def test_a_kong_touching_the_concealed_tiles_is_cut_off_whole_at_its_sideways_tile():
    # four equal tiles ending in the sideways one make a kong, not a pung with the fourth left concealed
    layout = read_layout(scene("123m456p789s1z 7z7z7z7z> _ 1z"))
    assert [m["tiles"] for m in layout.hand["melds"]] == [["7z"] * 4]
    assert len(layout.hand["concealed"]) == 10 and layout.hand["win_tile"] == "1z"


def test_a_concealed_row_ending_in_a_touching_meld_outweighs_discards_strewn_beside_it():
    # the hand's row is one group with a kong at its end: weighed with the kong cut off, it makes a complete
    # hand's count, where the strewn discards, two of them touching, make none
    layout = read_layout(scene("8s _ 8p _ 1p _ 8m6s _ 3z / 2m6s5m6m3z5s7p0m5m3m6z6z6z6z>", row_gap=0.5))
    assert layout.hand["concealed"] == ["2m", "6s", "5m", "6m", "3z", "5s", "7p", "0m", "5m"]
    assert layout.hand["win_tile"] == "3m" and [m["tiles"] for m in layout.hand["melds"]] == [["6z"] * 4]


@pytest.mark.parametrize("row", ["1z 555s 666m 55m5m> 2m3m>4m", "2m3m>4m 555s 666m 55m5m> 1z"])
def test_melds_laid_touching_beside_their_lone_tile_are_cut_off_together(row):
    # four melds and the lone tile in one row with no gap seen, two of the melds marked by a claimed tile: the
    # run of melds is cut off whole, and the row outweighs strewn discards beside it
    for text in (row, "8s _ 8p _ 1p _ 8m6s _ 3z / " + row):
        layout = read_layout(scene(text, row_gap=0.5))
        assert layout.hand["concealed"] == [] and layout.hand["win_tile"] == "1z"
        assert sorted(m["tiles"][0] for m in layout.hand["melds"]) == ["2m", "5m", "5s", "6m"]


@pytest.mark.parametrize("text", ["1f 123m456p789s1z _ 1z _ 2f", "123m456p7f789s1z _ 1z", "5f6f / 123m456p789s1z _ 1z"])
def test_flowers_are_bonus_tiles_wherever_they_lie_and_leave_no_gap(text):
    layout = read_layout(scene(text))
    assert layout.hand["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z"]
    assert layout.hand["win_tile"] == "1z"
    assert layout.hand["flowers"] and all(c.endswith("f") for c in layout.hand["flowers"])
    assert all("set apart" not in w for w in layout.warnings)


@pytest.mark.parametrize("angle", [0, 17, 40, 45, 90, 130, 180, 200, 225, 270, 310])
def test_the_photo_may_be_turned_any_way(angle):
    h = hand("123m456p1z _ 1z _ 4s>56s _ 7z7z>7z / ", angle)
    assert h["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "1z"]
    assert h["win_tile"] == "1z"
    assert [(m["type"], m.get("from")) for m in h["melds"]] == [("chow", "left"), ("pung", "across")]


@pytest.mark.parametrize("angle", [50, 230, 310])
def test_faces_that_mostly_agree_turn_a_slanted_row_the_right_way(angle):
    det = scene("123m456p789s11z55z _ 5z", angle)
    det.orientation[[0, 4, 8]] = (det.orientation[[0, 4, 8]] + 180) % 360  # three of 14 faces misread
    layout = read_layout(det)
    assert layout.hand["win_tile"] == "5z" and layout.hand["concealed"][0] == "1m"
    assert all("set apart" not in w for w in layout.warnings)


def split_turns(det: Detections, tiles: slice) -> None:
    """Read ``tiles`` turned the other quarter turn their probability is shared with, as the classifier reads
    about half the faces of a row near the picture's diagonal."""
    for i in range(len(det))[tiles]:
        other = int(np.argsort(det.turns[i], kind="stable")[-2])
        det.orientation[i], det.rotated[i] = other * 90, other % 2 == 1


@pytest.mark.parametrize("angle", [35, 45, 50, 135, 230, 305])
def test_in_a_row_near_the_diagonal_faces_read_a_quarter_turn_off_are_not_sideways(angle):
    det = scene("123m456p789s11z55z _ 5z", angle)
    split_turns(det, slice(0, None, 2))
    layout = read_layout(det)
    assert layout.hand["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"]
    assert layout.hand["win_tile"] == "5z" and layout.warnings == []
    melds = scene("123m456p1z _ 1z _ 4s>56s _ 7z7z>7z", angle)
    split_turns(melds, slice(0, 8, 2))  # among the concealed tiles
    assert [(m["type"], m.get("from")) for m in read_layout(melds).hand["melds"]] == [
        ("chow", "left"),
        ("pung", "across"),
    ]


@pytest.mark.parametrize("angle", [0, 40, 220])
def test_in_a_row_of_tiles_all_lying_sideways_none_is_turned_against_its_row(angle):
    layout = read_layout(scene("1m>2m>3m>4p>5p>6p>7s>8s>9s>1z>1z>5z>5z> _ 5z>", angle))
    assert layout.hand["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"]
    assert layout.hand["win_tile"] == "5z" and layout.warnings == []


@pytest.mark.parametrize(("widen", "sideways"), [(1.0, False), (1.2, False), (1.8, True)])
def test_a_face_read_sideways_is_a_turned_tile_only_where_its_box_lies_sideways_too(widen, sideways):
    # the classifier reads the 4p a quarter turn off, as it reads faces that look alike turned (dots, birds)
    det = scene("123m456p789s11z55z _ 5z", 0)
    det.orientation[3], det.rotated[3], det.turns[3] = 90, True, [0, 1, 0, 0]
    x1, y1, x2, y2 = det.boxes[3]
    det.boxes[3] = [x1, y1, x1 + (x2 - x1) * widen, y2]  # 1.8 times as wide: the box of a tile lying sideways
    layout = read_layout(det)
    assert layout.hand["concealed"][3] == "4p" and layout.hand["win_tile"] == "5z"
    # a turned tile marks its group as a declared meld: here the row, no meld, said so
    assert (layout.warnings != []) == sideways


def test_a_tile_read_sideways_whose_face_surely_points_along_the_row_is_not_turned():
    det = scene("123m456p789s11z55z _ 5z", 0)
    x1, y1, x2, y2 = det.boxes[3]
    det.boxes[3] = [x1, y1, x1 + (x2 - x1) * 1.8, y2]  # a box shaped as a sideways tile's
    # sideways in the picture (90 and 270 degrees: 0.55), yet the turns' mean points 6 degrees off the row
    det.rotated[3], det.turns[3] = True, [0.45, 0.3, 0.0, 0.25]
    layout = read_layout(det)
    assert layout.hand["concealed"][3] == "4p" and layout.warnings == []
    det.turns[3] = [0.3, 0.3, 0.3, 0.1]  # a turn too unsure to say: the picture and the box decide
    assert read_layout(det).warnings != []


def test_in_a_row_near_the_diagonal_a_face_is_sideways_only_where_it_points_well_across_the_row():
    det = scene("123m456p789s11z55z _ 5z", 40)
    det.turns[3], det.orientation[3], det.rotated[3] = [0, 1, 0, 0], 90, True  # 50 degrees off the row
    layout = read_layout(det)
    assert layout.hand["concealed"][3] == "4p" and layout.warnings == []
    claimed = read_layout(scene("123m456p1z _ 1z _ 4s>56s", 40))  # the sideways 4s: 89 degrees off
    assert claimed.hand["melds"][0].get("from") == "left"


def test_in_a_row_near_the_diagonal_a_face_whose_turn_is_unsure_is_not_sideways():
    det = scene("123m456p789s11z55z _ 5z", 305.5)  # the row of a real photo, running up to the right
    det.turns[3] = [0.28, 0.28, 0.24, 0.2]  # a dots face's turn there: the classifier cannot tell
    det.orientation[3], det.rotated[3] = 90, True
    layout = read_layout(det)
    assert layout.hand["win_tile"] == "5z" and layout.warnings == []


def test_faces_alike_turned_half_round_have_no_say_in_the_rows_direction():
    det = scene("1m2p3p4p8p9p2p3p4p8p9p1p1p _ 2m")
    dots = np.array([c.endswith("p") for c in det.codes])
    det.orientation[dots] = 180  # as the classifier reads many real dots: upside down
    layout = read_layout(det)
    assert layout.hand["win_tile"] == "2m" and layout.hand["concealed"][0] == "1m"
    assert layout.warnings == []


def test_where_the_faces_do_not_tell_the_rows_direction_the_tile_set_apart_does():
    det = scene("1z _ 123m456p789s11z55z")  # the tile set apart on the picture's left
    det.orientation[1::2] = 180  # half the faces read upside down: no direction from them
    layout = read_layout(det)
    assert layout.hand["win_tile"] == "1z" and layout.hand["concealed"][0] == "5z"
    assert layout.warnings == [UNORIENTED]
    tied = scene("123m456p789s11z55z5z")  # nothing set apart: the picture's left to right, no warning of it
    tied.orientation[1::2] = 180
    assert read_layout(tied).hand["win_tile"] == "5z"
    assert UNORIENTED not in read_layout(tied).warnings
    upright = read_layout(scene("1z _ 123m456p789s11z55z"))  # faces that agree decide, whatever lies apart
    assert upright.hand["concealed"][:2] == ["1z", "1m"] and UNORIENTED not in upright.warnings


def test_a_row_of_discards_lying_apart_is_not_the_concealed_row_of_a_hand_of_three_melds():
    # six discards strewn a tile apart hold more tiles in no meld than the hand's four concealed tiles and its
    # winning tile, but the concealed tiles touch
    layout = read_layout(scene("2m _ 6z _ 3s _ 1z _ 7m _ 4z / 111p _ 222s _ 333z / 5679m _ 9m", row_gap=0.5))
    assert layout.hand["concealed"] == ["5m", "6m", "7m", "9m"] and layout.hand["win_tile"] == "9m"
    assert [m["tiles"] for m in layout.hand["melds"]] == [["1p", "1p", "1p"], ["2s", "2s", "2s"], ["3z", "3z", "3z"]]


def test_a_row_holding_a_whole_hand_is_the_concealed_row_whatever_touches_beside_it():
    # a hand of four melds laid in one row, its lone tile at the right end; two of the discards beyond it touch,
    # and the hand's row has no two concealed tiles touching
    layout = read_layout(scene("2m4z _ 6z _ 3s _ 1z _ 7m / 111p _ 222s _ 333z _ 789m _ 9m", row_gap=0.5))
    assert layout.hand["win_tile"] == "9m" and layout.hand["concealed"] == []
    assert [m["tiles"][0] for m in layout.hand["melds"]] == ["1p", "2s", "3z", "7m"]


def test_a_riichi_pond_of_touching_tiles_is_not_the_concealed_row_of_a_hand_of_three_melds():
    # six discards laid touching in a row, as riichi players lay them, hold more touching tiles in no meld than
    # the hand's four concealed tiles; only the hand's own make a complete hand with the three melds
    layout = read_layout(scene("2m6z3s1z7m4z / 111p _ 222s _ 333z / 5679m _ 9m", row_gap=0.5))
    assert layout.hand["concealed"] == ["5m", "6m", "7m", "9m"] and layout.hand["win_tile"] == "9m"
    assert len(layout.hand["melds"]) == 3 and "found 20 tiles" not in " ".join(layout.warnings)
    assert not any("this may be no hand" in w for w in layout.warnings)  # the pond's row is left out: two rows


POND_BESIDE_FOUR_MELDS = "2m4z6z3s1z / 111p _ 222s _ 333z _ 789m / 9m _ 9m"


def test_knowing_the_tables_hand_size_tells_a_pond_row_from_the_concealed_row():
    # five touching discards beyond a hand of four melds make 17 tiles with them: a complete hand where the rules
    # are not known (16-tile rules), so the touching row wins; a table of 13-tile rules makes it none
    unknown = read_layout(scene(POND_BESIDE_FOUR_MELDS, row_gap=0.5))
    assert unknown.hand["concealed"] == ["2m", "4z", "6z", "3s"]
    known = read_layout(scene(POND_BESIDE_FOUR_MELDS, row_gap=0.5), hand_size=13)
    assert known.hand["concealed"] == ["9m"] and known.hand["win_tile"] == "9m"
    assert [m["tiles"][0] for m in known.hand["melds"]] == ["1p", "2s", "3z", "7m"]
    assert read_layout(scene(POND_BESIDE_FOUR_MELDS, row_gap=0.5), hand_size=16).hand == unknown.hand


def test_a_known_hand_size_names_the_one_count_in_the_warning():
    fourteen = scene("123m456p789s11z55z _ 5z")
    assert read_layout(fourteen, hand_size=16).warnings == ["found 14 tiles; a complete hand has 17"]
    assert read_layout(fourteen, hand_size=13).warnings == []
    with pytest.raises(ValueError, match="hand_size must be one of 13, 16"):
        read_layout(fourteen, hand_size=14)


def test_tiles_in_three_rows_or_more_warn_that_they_may_be_no_hand():
    layout = read_layout(scene("1m3p5s7z2m4p / 6s1z3m5p7s2z / 4m6p8s3z9m"))
    assert any(w.startswith("the tiles lie in 3 rows") and w.endswith("this may be no hand") for w in layout.warnings)


def test_four_of_one_code_among_the_concealed_tiles_may_be_a_kong_in_the_hands_count():
    # 6 concealed tiles and three melds make 15, or 14 with the four 6z as a kong; five discards beyond make 14
    layout = read_layout(scene("5555p _ 999s _ 555m / 6666z8s _ 8s / 1p7p _ 7p _ 1z7m"))
    assert layout.hand["concealed"] == ["6z", "6z", "6z", "6z", "8s"] and layout.hand["win_tile"] == "8s"


def test_the_concealed_row_is_the_one_lying_nearest_the_melds():
    # a hand of four melds in a row of its own, its lone tile in the next row; two touching discards beyond
    # make a hand's count with the melds as well, and touch, but lie farther from the melds
    layout = read_layout(scene("111p _ 222s _ 333z _ 789m / 9m / 2m4z"))
    assert layout.hand["win_tile"] == "9m" and layout.hand["concealed"] == []
    assert [m["tiles"][0] for m in layout.hand["melds"]] == ["1p", "2s", "3z", "7m"]


def test_a_hand_with_a_blank_face_read_face_down_still_holds_the_most_touching_tiles():
    # the white dragon's blank face read as a back (a face-down tile) does not make the concealed tiles a meld
    # beside a row of discards in which three touch
    layout = read_layout(scene("2m4z6z _ 3s _ 1z / 123m456p789s11z back _ 1z", row_gap=0.5))
    assert layout.hand["concealed"][:3] == ["1m", "2m", "3m"] and layout.hand["concealed"][-1] == "5z"
    assert layout.hand["win_tile"] == "1z"


def test_discards_lying_their_own_ways_do_not_outvote_the_hands_row_on_its_direction():
    # a photo taken from across the table (turned half round): the hand's faces all upside down in the picture,
    # seven discards beyond it upright; the picture's faces agree on no direction, the hand's row does
    det = scene("2m _ 6z _ 3s _ 1z _ 7m _ 4z _ 2s / 123m67m137s1234z6z7z", 180)
    discards = np.arange(7)
    det.orientation[discards], det.turns[discards] = 0, [1.0, 0.0, 0.0, 0.0]
    layout = read_layout(det)
    assert layout.hand["concealed"][:3] == ["1m", "2m", "3m"] and layout.hand["win_tile"] == "7z"
    assert UNORIENTED not in layout.warnings


def test_the_longest_row_decides_the_direction_where_its_faces_are_mostly_dots_and_bamboo():
    # a photo from across the table: the hand's faces upside down, most of them dots and bamboo, which look alike
    # turned half round and have no say; six discards beyond it, upright, hold more faces that do
    det = scene("2m _ 6z _ 3s _ 1z _ 7m _ 4z / 1m2p3p4p5p8p9p2s4s5s6z7z1z _ 3m", 180)
    discards = np.arange(6)
    det.orientation[discards], det.turns[discards] = 0, [1.0, 0.0, 0.0, 0.0]
    layout = read_layout(det)
    assert layout.hand["concealed"][0] == "1m" and layout.hand["win_tile"] == "3m"


@pytest.mark.parametrize("angle", [0, 90, 180, 270])
def test_second_row_melds_are_found_in_turned_photos(angle):
    h = hand("5555m / 123m456p789s1z _ 1z", angle)
    assert h["melds"] == [{"type": "kong", "tiles": ["5m"] * 4, "open": True}]
    assert h["win_tile"] == "1z"


def test_a_group_that_is_no_meld_becomes_concealed_tiles_with_a_warning():
    layout = read_layout(scene("123m456p789s1z _ 1z _ 35p"))
    assert layout.hand["concealed"][-2:] == ["3p", "5p"]
    assert any("the 2 tiles 35p set apart from the concealed tiles form no meld" in w for w in layout.warnings)


def test_a_face_down_tile_among_the_concealed_tiles_is_a_blank_white_dragon():
    layout = read_layout(scene("123m4pback6p789s11z55z _ 5z"))
    assert layout.hand["concealed"] == ["1m", "2m", "3m", "4p", "5z", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"]
    assert layout.hand["win_tile"] == "5z"
    assert layout.codes[4] == "5z" and layout.codes.count("back") == 0
    assert layout.warnings == ["a face-down tile among the concealed tiles: read as 5z, the white dragon's blank face"]
    assert not [g for g in layout.groups if g.role == "ignored"]


@pytest.mark.parametrize(
    ("row", "faces"),
    [("1mback2pbackback3s", ["1m", "2p", "3s"]), ("123456m" + "back" * 5, ["1m", "2m", "3m", "4m", "5m", "6m"])],
)
def test_as_many_face_down_tiles_as_faces_or_more_than_a_set_has_white_dragons_are_left_out(row, faces):
    # a standing hand seen partly from behind: 3 face-down tiles among 3 faces, or 5 among 6 (a set has 4
    # white dragons)
    layout = read_layout(scene(row + " _ 1z"))
    assert layout.hand["concealed"] == faces
    backs = len(layout.codes) - len(faces) - 1
    assert backs in (3, 5) and layout.codes.count("back") == backs
    assert not [w for w in layout.warnings if "blank face" in w]
    (ignored,) = [g for g in layout.groups if g.role == "ignored"]
    assert len(ignored.tiles) == backs


def test_a_face_down_tile_in_a_group_of_another_row_that_is_no_meld_is_a_blank_white_dragon():
    layout = read_layout(scene("123m456p78s _ 1z / 5p2p6p2zback"))
    assert layout.hand["concealed"][-5:] == ["5p", "2p", "6p", "2z", "5z"] and layout.hand["win_tile"] == "1z"
    assert layout.codes[-1] == "5z"
    assert layout.warnings[0] == "a face-down tile among the concealed tiles: read as 5z, the white dragon's blank face"


def test_a_face_down_tile_in_a_group_no_larger_than_a_meld_stays_face_down():
    # a concealed kong the detector read only part of looks the same: no guess
    layout = read_layout(scene("123m456p789s _ 1z / 2p6pback"))
    assert layout.hand["concealed"] == ["2p", "6p"]
    assert layout.codes[-1] == "back"


def test_face_down_tiles_of_a_concealed_kong_are_no_blank_faces():
    # the kong touches the concealed tiles: it is cut off at its face-down end, not read as white dragons
    layout = read_layout(scene("123m456p1zback7z7zback _ 1z"))
    assert layout.hand["melds"] == [{"type": "kong", "tiles": ["7z"] * 4, "open": False}]
    assert layout.codes.count("back") == 2


def test_a_grid_of_tiles_gives_a_best_guess_and_says_it_may_be_no_hand():
    layout = read_layout(scene("12345m / 12345p / 12345s / 1234z1s"))
    h = layout.hand
    assert len(h["concealed"]) + (h["win_tile"] is not None) + 3 * len(h["melds"]) == 20
    assert any("the tiles lie in 4 rows" in w for w in layout.warnings)
    assert any("found 20 tiles" in w for w in layout.warnings)


def test_a_lone_tile_away_from_the_rows_is_the_winning_tile_when_none_is_set_apart():
    layout = read_layout(scene("123m456p789s11z5z / _ _ _ _ 9p"))  # a row of 12: a hand short of a tile or two
    assert layout.hand["win_tile"] == "9p" and len(layout.hand["concealed"]) == 12
    assert any("lying apart from the rows" in w for w in layout.warnings)
    # beside a hand holding a hand's 13 tiles or more it is one too many: a discard
    for row in ("123m456p789s11z55z", "123m456p789s11z555z"):
        layout = read_layout(scene(f"{row} / _ _ _ _ 9p"))
        assert layout.hand["win_tile"] == "5z" and "9p" not in layout.hand["concealed"]
        assert [w for w in layout.warnings if "lying apart" in w] == [
            "1 tile 9p lying apart from the hand's rows in no meld (the discards) left out of it: the hand holds a "
            "hand's tiles without them"
        ]


def test_a_fifth_copy_is_warned_about():
    layout = read_layout(scene("11111m456p789s1z _ 1z"))
    assert "5 copies of 1m: a set has 4 (a tile may be misread)" in layout.warnings


def test_no_tiles():
    layout = read_layout(Detections())
    assert layout.hand == {"concealed": [], "melds": [], "win_tile": None, "flowers": []}
    assert layout.warnings == ["no tiles found"]


def test_groups_name_every_tile_once():
    det = scene("1f 123m456p1z _ 1z _ 4s>56s / back7z7zback")
    layout = read_layout(det)
    indices = sorted(i for g in layout.groups for i in g.tiles)
    assert indices == list(range(len(det)))
    assert {g.role for g in layout.groups} == {"concealed", "meld", "win", "flower"}


def test_direction_points_to_the_players_right():
    assert read_layout(scene(FULL, 0)).direction == pytest.approx((1.0, 0.0), abs=0.02)
    assert read_layout(scene(FULL, 180)).direction == pytest.approx((-1.0, 0.0), abs=0.02)
    assert read_layout(scene(FULL, 90)).direction == pytest.approx((0.0, 1.0), abs=0.02)


def test_faces_split_on_their_turn_leave_the_row_read_left_to_right():
    det = scene("123m456p789s11z22z", 0)
    det.orientation[:9] = 180  # 9 of 14 faces read upside down: not three in four
    layout = read_layout(det)
    assert layout.direction == pytest.approx((1.0, 0.0), abs=0.02)
    assert layout.hand["win_tile"] == "2z"
    det.orientation[:] = 180
    det.orientation[0] = 0  # 13 of 14 upside down: the photo was taken from across the table
    assert read_layout(det).direction == pytest.approx((-1.0, 0.0), abs=0.02)


def test_meld_shapes():
    assert meld_shape(["3s", "4s", "5s"]) == "chow"
    assert meld_shape(["5s", "3s", "4s"]) == "chow"
    assert meld_shape(["0s", "4s", "6s"]) == "chow"
    assert meld_shape(["1z", "2z", "3z"]) is None
    assert meld_shape(["8s", "9s", "1s"]) is None
    assert meld_shape(["0m", "5m", "5m"]) == "pung"
    assert meld_shape(["back", "7z", "7z", "back"]) == "concealed_kong"
    assert meld_shape(["back", "back", "back", "back"]) is None
    assert meld_shape(["1f", "1f", "1f"]) is None
    assert meld_shape(["2m", "2m"]) is None


def test_two_readings_of_one_tile_keep_the_better_one():
    boxes = np.array([[0, 0, 30, 40], [1, 0, 31, 40], [40, 0, 70, 40]], np.float32)
    det = Detections(
        boxes,
        np.array([0.5, 0.9, 0.8], np.float32),
        np.array([CLASS_INDEX[c] for c in ("3p", "5p", "1m")]),
        np.zeros(3, bool),
    )
    kept, warnings = drop_duplicates(det)
    assert kept.codes == ["5p", "1m"]
    assert warnings == ["two readings of one tile: kept 5p (0.90), dropped 3p (0.50)"]


def quarter_turns(boxes: np.ndarray, k: int, size: float) -> np.ndarray:
    """Boxes of a size x size photo turned k quarter turns clockwise."""
    x1, y1, x2, y2 = boxes.T
    for _ in range(k):
        x1, y1, x2, y2 = size - y2, x1, size - y1, x2
    return np.stack([x1, y1, x2, y2], axis=1).astype(np.float32)


@pytest.mark.parametrize("photo", photos(), ids=lambda p: p.stem)
def test_a_real_layout_turned_a_quarter_at_a_time_gives_the_same_hand(photo):
    gt = read_yolo_labels(SAMPLE / "labels" / (photo.stem + ".txt"), 640, 640, read_classes(SAMPLE / "classes.json"))
    ids = np.array([CLASS_INDEX[c] for c in gt.codes])
    n = len(ids)
    hands = []
    for k in range(4):
        det = Detections(
            quarter_turns(gt.boxes, k, 640),
            np.ones(n, np.float32),
            ids,
            np.full(n, k % 2 == 1),
            np.full(n, 90 * k, np.int16),
        )
        hands.append(read_layout(det).hand)
    assert hands[1] == hands[0] and hands[2] == hands[0] and hands[3] == hands[0]


@pytest.mark.parametrize(
    "text",
    [
        "123m456p789s11z55z _ 5z",
        "123m456p1z _ 1z _ 4s>56s _ 7z7z>7z",
        "123m456p1z _ 1z _ 5s4s>6s _ back0m5mback",
        "1f 123m456p789s1z _ 1z / 2p2p>^2p",
        "234s 777z _ 5555m / 123m1z _ 1z 8f",
    ],
)
def test_hands_read_from_layouts_are_valid_hands_for_the_scorers(text):
    from scoring import Hand

    hand = Hand.from_json(read_layout(scene(text)).hand)
    hand.validate(hand_size=13)


def test_tiles_in_order_are_cut_into_melds_a_pung_with_a_tile_stacked_on_it_an_added_kong():
    assert split_melds(["1m", "2m", "3m", "5z", "5z", "5z"]) == [(0, 3), (3, 6)]
    assert split_melds(["7z", "7z", "7z", "7z", "1s", "2s", "3s"]) == [(0, 4), (4, 7)]
    assert split_melds(["1m", "2m", "4m"]) is None
    assert split_melds(["2p", "2p", "2p", "2p"], [False, False, True, False]) == [(0, 4)]
    assert split_melds(["1m", "2m", "3m", "3m"], [False, False, False, True]) is None  # only a pung takes one
    assert split_melds([]) == []
