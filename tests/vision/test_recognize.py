"""recognize(): decoding, the model's boxes back in the photo's pixels, the layout, the JSON of contracts.md;
and the annotated picture. The model here reads the labels of the committed photos (tests/vision/labelled.py),
so everything around the model runs for real."""

from __future__ import annotations

import io
from types import SimpleNamespace

import numpy as np
import pytest
from labelled import SAMPLE, LabelModel, photos
from PIL import Image
from scenes import scene

import vision
from vision.annotate import GREEN, RED, Box, annotate_image, annotate_jpeg, draw_boxes, place_tags, tiles_region
from vision.recognize import DECODE_SIDE, as_recognized, detect_photo, from_detections, recognize
from vision.types import CLASS_INDEX, CLASSES, Detections


def test_recognition_json_has_the_contract_fields():
    model = LabelModel()
    photo = SAMPLE / "images" / "table-meld-row.jpg"
    rec = vision.recognize(photo, model=model)
    out = rec.to_json()
    assert list(out) == [
        "image",
        "width",
        "height",
        "tiles",
        "hand",
        "hand_tiles",
        "complete_with",
        "warnings",
        "timings_ms",
    ]
    assert (out["image"], out["width"], out["height"]) == ("table-meld-row.jpg", 640, 640)
    assert set(out["timings_ms"]) == {"decode", "detect", "classify", "total"}
    assert out["timings_ms"]["total"] >= out["timings_ms"]["decode"]
    tile = out["tiles"][0]
    assert set(tile) == {"code", "box", "score", "rotated", "alternatives"} and len(tile["box"]) == 4
    assert tile["alternatives"] == []  # the labels' model is sure of every tile
    assert set(out["hand"]) >= {"concealed", "melds", "win_tile", "flowers"}
    assert {"type": "pung", "tiles": ["1m", "1m", "1m"], "open": True} in out["hand"]["melds"]
    assert out["hand"]["flowers"] == ["7f"]


@pytest.mark.parametrize("photo", photos(), ids=lambda p: p.stem)
def test_every_sample_photo_gives_a_hand_and_every_tile_a_role(photo):
    rec = recognize(photo, model=LabelModel())
    roles = rec.roles()
    assert sorted(roles) == list(range(len(rec.tiles)))
    h = rec.hand
    placed = (
        len(h["concealed"]) + len(h["flowers"]) + (h["win_tile"] is not None) + sum(len(m["tiles"]) for m in h["melds"])
    )
    left_out = [rec.tiles[i].code for i, role in sorted(roles.items()) if role in ("apart", "ignored")]
    assert placed + len(left_out) == len(rec.tiles)
    assert left_out == (["8p"] if photo.stem == "row-discard" else [])  # its discard, lying apart from the hand


@pytest.mark.parametrize("photo", photos(), ids=lambda p: p.stem)
def test_hand_tiles_name_the_tiles_of_each_part_of_the_hand(photo):
    out = recognize(photo, model=LabelModel()).to_json()
    codes = [t["code"] for t in out["tiles"]]
    parts, hand = out["hand_tiles"], out["hand"]
    assert [codes[i] for i in parts["concealed"]] == hand["concealed"]
    assert [codes[i] for i in parts["flowers"]] == hand["flowers"]
    assert (codes[parts["win_tile"]] if parts["win_tile"] is not None else None) == hand["win_tile"]
    assert len(parts["melds"]) == len(hand["melds"])
    for indices, meld in zip(parts["melds"], hand["melds"], strict=True):
        faces = sorted(codes[i] for i in indices if codes[i] != "back")
        assert len(indices) == len(meld["tiles"]) and set(faces) <= set(meld["tiles"])


def test_each_tile_comes_with_the_other_codes_the_classifiers_found_likely():
    det = scene("123m456p789s11z55z _ 5z")
    probs = np.array(det.probs)
    probs[4] = 0.0
    probs[4, [CLASS_INDEX["5p"], CLASS_INDEX["0p"], CLASS_INDEX["6p"], CLASS_INDEX["3p"], CLASS_INDEX["5s"]]] = (
        0.6,
        0.25,
        0.1,
        0.015,
        0.01,
    )
    det.probs = probs
    rec = from_detections(det, 1000, 1000)
    assert rec.tiles[4].code == "5p"
    assert [code for code, _ in rec.tiles[4].alternatives] == ["0p", "6p"]  # 3p and 5s under ALTERNATIVE_MIN
    assert [p for _, p in rec.tiles[4].alternatives] == pytest.approx([0.25, 0.1])
    assert rec.to_json()["tiles"][4]["alternatives"][0] == {"code": "0p", "probability": 0.25}
    assert rec.tiles[0].alternatives == ()


def test_sources_bytes_path_array_give_the_same_hand():
    photo = SAMPLE / "images" / "row-flower.jpg"
    model = LabelModel()
    by_path = recognize(photo, model=model)
    by_bytes = recognize(photo.read_bytes(), model=model, name="row-flower.jpg")
    by_array = recognize(vision.load_image(photo), model=model, name="row-flower.jpg")
    assert by_path.hand == by_bytes.hand == by_array.hand
    assert by_bytes.image == "row-flower.jpg"


def test_a_large_jpeg_is_decoded_reduced_and_boxes_come_back_in_its_pixels():
    photo = SAMPLE / "images" / "row-flower.jpg"
    big = io.BytesIO()
    Image.open(photo).resize((4032, 3024)).save(big, "JPEG", quality=85)
    model = LabelModel()
    width, height, det = detect_photo(big.getvalue(), model)
    assert (width, height) == (4032, 3024)
    assert model.seen[-1][1] < 4032 and model.seen[-1][1] >= DECODE_SIDE
    small = recognize(photo, model=model)
    np.testing.assert_allclose(
        det.boxes[:, [0, 2]] / 4032, np.array([t.box for t in small.tiles])[:, [0, 2]] / 640, atol=2e-3
    )
    rec = recognize(big.getvalue(), model=model)
    assert (rec.width, rec.height) == (4032, 3024) and rec.hand == small.hand


def test_exif_rotated_photo_gives_upright_size_and_the_same_hand():
    photo = SAMPLE / "images" / "row-flower.jpg"
    turned = Image.open(photo).resize((640, 480)).transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6  # stored turned a quarter; the viewer turns it back
    data = io.BytesIO()
    turned.save(data, "JPEG", quality=92, exif=exif)
    rec = recognize(data.getvalue(), model=LabelModel(tolerant=True))
    assert (rec.width, rec.height) == (640, 480)


def test_duplicates_and_low_confidence_are_warned():
    det = scene("123m456p789s11z55z _ 5z")
    det.scores[3] = 0.3
    twin = Detections(
        np.vstack([det.boxes, det.boxes[:1] + 1]),
        np.append(det.scores, 0.2).astype(np.float32),
        np.append(det.class_ids, CLASS_INDEX["7p"]),
        np.append(det.rotated, False),
    )
    rec = from_detections(twin, 1000, 1000)
    assert len(rec.tiles) == len(det)
    assert rec.warnings[0].startswith("two readings of one tile: kept 1m")
    assert "1 tile(s) read with low confidence: 4p (0.30)" in rec.warnings


def test_only_the_hands_tiles_are_warned_about_as_read_with_low_confidence():
    from test_layout import far_and_small

    det = far_and_small(0.7, 200.0)  # 14 tiles of a hand, 4 discards far above it
    det.scores[2] = 0.3
    det.scores[14:] = 0.2
    rec = from_detections(det, 1000, 1000)
    assert "1 tile(s) read with low confidence: 3m (0.30)" in rec.warnings
    det.probs[2, CLASS_INDEX["2m"]] = 0.3  # its likeliest other code is named
    rec = from_detections(det, 1000, 1000)
    assert "1 tile(s) read with low confidence: 3m (0.30, or 2m)" in rec.warnings
    assert sorted(i for i, role in rec.roles().items() if role == "apart") == [14, 15, 16, 17]


def test_a_tile_the_hand_reads_as_a_blank_face_carries_that_code():
    rec = from_detections(scene("123m4pback6p789s11z55z _ 5z"), 1000, 1000)
    assert rec.tiles[4].code == "5z"
    assert [t.code for t in rec.tiles].count("5z") == 4
    assert rec.hand["concealed"].count("5z") == 3


def test_a_weak_face_down_tile_the_hand_leaves_out_is_dropped_but_a_concealed_kongs_end_is_kept():
    # a face-down tile on its own in a second row (a tile's side read as its back), and a concealed kong
    det = scene("back / 123m456p1z _ 1z _ back7z7zback")
    assert det.codes[0] == "back"
    det.scores[[0, -1, -4]] = 0.4  # the stray one and both ends of the kong
    rec = from_detections(det, 1000, 1000)
    assert len(rec.tiles) == len(det) - 1
    assert [t.code for t in rec.tiles].count("back") == 2
    assert rec.hand["melds"] == [{"type": "kong", "tiles": ["7z"] * 4, "open": False}]
    assert not any("face-down tile" in w for w in rec.warnings)
    det.scores[0] = 0.6  # surer: kept, and left out of the hand with a warning
    rec = from_detections(det, 1000, 1000)
    assert len(rec.tiles) == len(det)
    assert any("face down" in w and "left out" in w for w in rec.warnings)


def test_a_hand_size_no_rule_set_plays_is_refused_before_the_photo_is_read():
    class Unused:
        def detect(self, image, timings=None):
            raise AssertionError("the model was run")

    with pytest.raises(ValueError, match="hand_size must be one of 13, 16, not 14"):
        vision.recognize(SAMPLE / "images" / "row-flower.jpg", model=Unused(), hand_size=14)


def test_an_evaluation_as_recognized_scores_the_codes_the_hand_reads():
    det = scene("back / 123m4pback6p789s11z55z _ 5z")  # a stray face-down tile, and a blank face in the row
    det.scores[0] = 0.4
    read = as_recognized(SimpleNamespace(detect=lambda rgb: det))
    got = read(np.zeros((1000, 1000, 3), np.uint8))
    codes = [CLASSES[c] for c in got.class_ids]
    assert len(got) == len(det) - 1 and "back" not in codes and codes.count("5z") == 4
    assert np.array_equal(got.boxes, det.boxes[1:]) and not got.face_down.any()


def grey() -> np.ndarray:
    return np.full((900, 1200, 3), 128, np.uint8)


def colour_pixels(rgb: np.ndarray, colour: tuple[int, int, int]) -> int:
    return int((np.abs(rgb.astype(int) - colour).sum(axis=2) < 30).sum())


def test_annotation_marks_low_confidence_tiles_in_red_and_leaves_the_input_alone():
    det = scene("123m456p1z _ 1z _ 4s>56s")
    det.boxes[:] = det.boxes + 100
    image = grey()
    sure = annotate_image(image, from_detections(det, 1200, 900))
    assert colour_pixels(sure, RED) == 0 and colour_pixels(sure, GREEN) > 0
    det.scores[0] = 0.2
    unsure = annotate_image(image, from_detections(det, 1200, 900))
    assert colour_pixels(unsure, RED) > 0
    assert (image == 128).all()


def test_annotation_is_jpeg_at_most_1600_px_and_scales_boxes_to_a_smaller_picture():
    det = scene("123m456p789s11z55z _ 5z")
    det.boxes[:] = det.boxes * 4
    rec = from_detections(det, 4000, 3000)
    with Image.open(io.BytesIO(annotate_jpeg(np.full((3000, 4000, 3), 90, np.uint8), rec))) as im:
        assert im.format == "JPEG" and max(im.size) == 1600
    for whole in (True, False):
        half = annotate_image(np.full((1500, 2000, 3), 90, np.uint8), rec, max_side=2000, whole=whole)
        full = annotate_image(np.full((3000, 4000, 3), 90, np.uint8), rec, max_side=2000, whole=whole)
        assert half.shape == full.shape and max(full.shape) == 2000
        assert (half.shape == (1500, 2000, 3)) == whole
        assert np.abs(half.astype(int) - full.astype(int)).mean() < 3
    assert max(annotate_image(grey(), rec, max_side=500).shape[:2]) == 500


def test_a_hand_far_off_in_a_large_photo_is_shown_cut_out_at_the_size_of_the_whole_photo():
    det = scene("123m456p789s11z55z _ 5z")  # 14 tiles 30 x 40 pixels from (500, 500) in a 4000 x 3000 photo
    rec = from_detections(det, 4000, 3000)
    photo = np.full((3000, 4000, 3), 90, np.uint8)
    whole = annotate_image(photo, rec, whole=True)
    cut = annotate_image(photo, rec)
    assert whole.shape == (1200, 1600, 3) and max(cut.shape[:2]) == 1600 and cut.shape[1] > 2 * cut.shape[0]
    assert colour_pixels(cut, GREEN) > 3 * colour_pixels(whole, GREEN)  # tiles, lines and tags drawn larger
    assert tiles_region(det.boxes, (3000, 4000)) == (400, 400, 1057, 640)  # 2.5 tile lengths (40 px) around
    assert tiles_region(det.boxes - 450, (200, 600)) is None  # a hand filling much of its photo: all of it shown
    assert tiles_region(np.zeros((0, 4)), (700, 1400)) is None


def overlap(a, b) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def test_tags_wider_than_their_tiles_are_placed_clear_of_each_other_beside_their_tile():
    row = [(100.0 + 40 * k, 300.0, 140.0 + 40 * k, 360.0) for k in range(14)]
    sizes = [(60.0, 24.0)] * 13 + [(110.0, 24.0)]  # codes with "?" and the winning tile's longer tag
    places = place_tags(row, sizes, [False] * 14, (1000, 800))
    for i, a in enumerate(places):
        assert all(overlap(a, b) == 0 for b in places[i + 1 :])
        box = row[i]
        assert a[0] == box[0] and (a[3] <= box[1] or a[1] == box[3])  # at its left side, on top or just under
        assert a[3] >= box[1] - 48  # at most two tiers above
    assert {a[1] for a in places[:13]} == {276.0, 252.0}  # two tiers take them all


def test_a_tag_stays_inside_the_picture():
    top, edge = place_tags(
        [(0.0, 0.0, 40.0, 60.0), (980.0, 100.0, 1000.0, 130.0)], [(60.0, 24.0)] * 2, [False, False], (1000, 800)
    )
    assert top == (0.0, 60.0, 60.0, 84.0)  # no room above the tile: under it
    assert edge[2] == 1000.0 and edge[3] <= 100.0  # moved in from the right side
    meld = place_tags([(100.0, 700.0, 300.0, 790.0)], [(80.0, 24.0)], [True], (1000, 800))[0]
    assert meld == (100.0, 676.0, 180.0, 700.0)  # no room under the meld: on top of it


def test_no_box_line_crosses_a_tag():
    upper = Box((100, 100, 300, 200), color=RED)
    lower = Box((100, 200, 300, 300), "WIN 9p", GREEN)
    for boxes in ([upper, lower], [lower, upper]):
        drawn = draw_boxes(grey(), boxes)
        assert colour_pixels(drawn[190:200, 105:140], RED) == 0 and colour_pixels(drawn[190:200, 105:140], GREEN) > 0


def test_annotation_text_lines_go_in_a_panel_below_the_photo_leaving_the_tiles_visible():
    rec = from_detections(scene("123m456p789s11z55z _ 5z"), 1200, 900)
    plain = annotate_image(grey(), rec)
    listed = annotate_image(grey(), rec, lines=["MCR 8 fan", "All Chows 2", "混一色 6"])
    assert listed.shape[1] == plain.shape[1] and listed.shape[0] > plain.shape[0]
    assert (listed[: plain.shape[0]] == plain).all()  # the photo and its boxes untouched
    panel = listed[plain.shape[0] :]
    assert (panel.max(axis=2) > 200).any() and (panel.max(axis=2) < 30).mean() > 0.5  # white text on black


def test_annotation_with_many_lines_still_fits_the_long_side_limit():
    rec = from_detections(scene("123m456p789s11z55z _ 5z"), 1200, 900)
    tall = annotate_image(np.full((1600, 1000, 3), 128, np.uint8), rec, lines=[f"pattern {k}" for k in range(30)])
    assert max(tall.shape[:2]) <= 1600


def test_a_picture_too_small_to_hold_tiles_is_refused_with_its_size():
    from vision.io import ImageError

    with pytest.raises(ImageError) as caught:
        recognize(np.zeros((20, 300, 3), np.uint8), model=LabelModel(tolerant=True))
    assert caught.value.code == "too_small" and "300 x 20" in caught.value.message


def test_a_panel_line_longer_than_the_picture_is_wrapped_not_cut():
    rec = from_detections(scene("123m456p789s11z55z _ 5z"), 1200, 900)
    long = "not scored: wrong tile count: 10 concealed (winning tile included) and 1 meld(s) make 13; needs 14"
    one = annotate_image(np.full((300, 400, 3), 128, np.uint8), rec, lines=[long])
    short = annotate_image(np.full((300, 400, 3), 128, np.uint8), rec, lines=["not scored"])
    assert one.shape[0] > short.shape[0] + 20  # more than one line of text
    panel = one[300:]
    assert (panel[:, -3:] < 30).all()  # nothing written into the right edge: the text stopped inside
