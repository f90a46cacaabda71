"""The training side of the tile model that needs no torch: the data readers and the synthetic scene generator.

The generator tests run without the shared data: they build a face pool from small drawn faces
(``small_pool``, also used by ``test_training_torch.py``). Targets, crops and a training run need torch
(the ``train`` extra) and are in ``test_training_torch.py``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.complete import is_complete
from vision.training import render, synth
from vision.training.data import (
    ART_CODES,
    ArtSet,
    DataError,
    load_art,
    load_crops,
    load_yolo_split,
    parse_yolo_line,
    read_classes,
)
from vision.types import CLASS_INDEX, CLASSES, box_iou


def _face(code: str) -> np.ndarray:
    """A 600 x 800 RGBA face: the code written large, transparent around it."""
    face = np.zeros((800, 600, 4), np.uint8)
    cv2.putText(face, code, (60, 480), cv2.FONT_HERSHEY_SIMPLEX, 8, (20, 20, 20, 255), 30)
    cv2.rectangle(face, (250, 80), (350, 180), (200, 30, 30, 255), -1)  # a mark at the top of the face
    return face


def _body(color: tuple[int, int, int]) -> np.ndarray:
    body = np.zeros((800, 600, 4), np.uint8)
    body[40:760, 30:570] = (*color, 255)
    return body


def small_pool() -> synth.FacePool:
    """A face pool of drawn faces (every code written on its face, a mark at its top) and one drawn crop."""
    art = [ArtSet("Regular", _body((240, 240, 235)), _body((220, 120, 40)), {c: _face(c) for c in ART_CODES.values()})]
    crops = [(cv2.cvtColor(_face("7z")[..., :3], cv2.COLOR_BGR2RGB), CLASS_INDEX["7z"])]
    return synth.FacePool(art, crops)


@pytest.fixture(scope="module")
def pool() -> synth.FacePool:
    return small_pool()


# ------------------------------------------------------------------------------------------ data readers


def test_yolo_box_line_becomes_pixel_box():
    cls, box = parse_yolo_line("3 0.5 0.25 0.2 0.1", 640, 480)
    assert cls == 3
    assert np.allclose(box, [256, 96, 384, 144])


def test_yolo_polygon_line_becomes_its_bounding_box():
    cls, box = parse_yolo_line("7 0.1 0.2 0.3 0.1 0.4 0.5 0.2 0.6", 100, 100)
    assert cls == 7
    assert np.allclose(box, [10, 10, 40, 60])


def test_yolo_bad_line_is_refused_and_blank_line_skipped():
    assert parse_yolo_line("   ", 10, 10) is None
    with pytest.raises(DataError, match="bad YOLO label line"):
        parse_yolo_line("1 0.5 0.5 0.1", 10, 10)


def test_yolo_split_reads_boxes_polygons_empty_and_missing_label_files(tmp_path: Path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    for name in ("a", "b", "c"):
        cv2.imwrite(str(tmp_path / "images" / f"{name}.jpg"), np.zeros((40, 80, 3), np.uint8))
    (tmp_path / "labels" / "a.txt").write_text("0 0.5 0.5 0.25 0.5\n1 0.1 0.1 0.3 0.1 0.3 0.4 0.1 0.4\n")
    (tmp_path / "labels" / "b.txt").write_text("")
    classes = tmp_path / "classes.json"
    classes.write_text(json.dumps({"0": "1m", "1": "back"}))
    items = {p.path.stem: p for p in load_yolo_split(tmp_path, classes)}
    assert sorted(items) == ["a", "b", "c"]
    assert np.allclose(items["a"].boxes, [[30, 10, 50, 30], [8, 4, 24, 16]])
    assert list(items["a"].class_ids) == [CLASS_INDEX["1m"], CLASS_INDEX["back"]]
    assert len(items["b"].boxes) == 0 and len(items["c"].boxes) == 0


def test_class_map_with_unknown_code_is_refused(tmp_path: Path):
    path = tmp_path / "classes.json"
    path.write_text(json.dumps({"0": "1m", "1": "10m"}))
    with pytest.raises(DataError, match="unknown tile codes"):
        read_classes(path)


def test_art_and_crops_readers(tmp_path: Path):
    style = tmp_path / "art-riichi-cc0" / "Export" / "Regular"
    style.mkdir(parents=True)
    (tmp_path / "art-riichi-flowers-ccby" / "Export").mkdir(parents=True)
    stems = {code: stem for stem, code in ART_CODES.items()}
    for stem in [*stems.values(), "Front", "Back"]:
        cv2.imwrite(str(style / f"{stem}.png"), np.full((16, 12, 4), 200, np.uint8))
    art = load_art(tmp_path)
    assert len(art) == 1 and len(art[0].faces) == len(CLASSES) - 1
    (style / "Chun.png").unlink()
    with pytest.raises(DataError, match="7z"):
        load_art(tmp_path)
    crops = tmp_path / "hk-crops"
    (crops / "images").mkdir(parents=True)
    cv2.imwrite(str(crops / "images" / "1.jpg"), np.zeros((20, 15, 3), np.uint8))
    (crops / "labels.csv").write_text("image,code\n1.jpg,5z\n")
    [(image, cls)] = load_crops(crops)
    assert image.shape == (20, 15, 3) and cls == CLASS_INDEX["5z"]


# ------------------------------------------------------------------------------------------ generator


def test_scene_has_picture_and_consistent_labels(pool: synth.FacePool):
    renderer = synth.SceneRenderer(pool, size=256)
    rng = np.random.default_rng(5)
    for _ in range(6):
        scene = renderer.render(rng)
        assert scene.image.shape == (256, 256, 3) and scene.image.dtype == np.uint8
        n = len(scene.boxes)
        assert n >= 1 and scene.class_ids.shape == (n,) and scene.orientation.shape == (n,)
        assert np.all(scene.boxes >= 0) and np.all(scene.boxes <= 256)
        assert np.all(scene.boxes[:, 2] > scene.boxes[:, 0]) and np.all(scene.boxes[:, 3] > scene.boxes[:, 1])
        assert set(scene.class_ids) <= set(range(len(CLASSES)))
        assert set(scene.orientation) <= {-1, 0, 1, 2, 3}


def test_scenes_repeat_for_a_seed(pool: synth.FacePool):
    renderer = synth.SceneRenderer(pool, size=192)
    a = renderer.render(np.random.default_rng(11))
    b = renderer.render(np.random.default_rng(11))
    assert np.array_equal(a.image, b.image) and np.array_equal(a.boxes, b.boxes)


def test_scenes_show_face_down_and_sideways_tiles(pool: synth.FacePool):
    renderer = synth.SceneRenderer(pool, size=192)
    rng = np.random.default_rng(2)
    classes, turns = [], []
    for _ in range(40):
        scene = renderer.render(rng)
        classes += list(scene.class_ids)
        turns += list(scene.orientation)
    assert CLASS_INDEX["back"] in classes
    assert {0, 1, 2, 3} <= set(turns)


def test_phone_scenes_show_bigger_tiles_than_the_training_spread(pool: synth.FacePool):
    def small_sides(phone: bool) -> float:  # the 10th percentile of the tiles' shorter sides, pixels
        renderer, rng = synth.SceneRenderer(pool, size=256, phone=phone), np.random.default_rng(3)
        sides = [
            np.min(s.boxes[:, 2:] - s.boxes[:, :2], 1) for s in (renderer.render(rng, "art", "hand") for _ in range(60))
        ]
        return float(np.percentile(np.concatenate(sides), 10))

    phone, spread = small_sides(True), small_sides(False)
    assert phone >= 10 and phone >= 1.3 * spread  # 10 px at 256: 25 px in a 640 picture


def test_a_hand_scene_knows_the_hand_it_shows(pool: synth.FacePool):
    renderer, rng = synth.SceneRenderer(pool, size=256, phone=True), np.random.default_rng(8)
    hands = 0
    for _ in range(12):
        scene = renderer.render(rng, "art", "hand")
        if scene.hand is None:  # a tile of the row or of a meld hidden or outside the picture
            continue
        hands += 1
        h = scene.hand
        codes = [*h["concealed"], h["win_tile"], *(c for m in h["melds"] for c in m["tiles"]), *h["flowers"]]
        labels = [CLASSES[i] for i in scene.class_ids]
        assert len(codes) == len(labels)  # every tile of the hand is labelled, and nothing else
        faces = Counter(c for c in labels if c != "back")
        assert not faces - Counter(codes) and sum((Counter(codes) - faces).values()) == labels.count("back")
    assert hands >= 6
    assert synth.SceneRenderer(pool, size=256).render(np.random.default_rng(1), "art", "grid").hand is None


def test_the_single_tile_photos_give_faces_without_a_turn():
    crop = cv2.cvtColor(_face("7p")[..., :3], cv2.COLOR_BGR2RGB)
    pool = synth.FacePool(small_pool().art, [(crop, CLASS_INDEX["7p"])])
    assert [face.oriented for face in pool.hk_by_class[CLASS_INDEX["7p"]]] == [False]
    tile_set = pool.tile_set(np.random.default_rng(0), "hk")
    assert pool.face(np.random.default_rng(0), CLASS_INDEX["7p"], tile_set).oriented is False


def test_the_hand_of_a_layout_comes_from_the_roles_of_the_tiles_shown():
    def tile(code: str, role: str, group: int = -1, pose: str = "flat") -> synth.Tile:
        return synth.Tile(CLASS_INDEX[code], None, np.zeros(2), 0.0, pose, role=(role, group, CLASS_INDEX[code]))

    tiles = [
        tile("1m", "concealed"),
        tile("2m", "concealed"),
        tile("9s", "win"),
        *(tile("7z", "chow", 0) for _ in range(3)),  # equal honours laid out as a chow: a pung
        tile("0p", "concealed_kong", 1, "down"),  # a face-down red five is a five
        tile("0p", "concealed_kong", 1),
        tile("0p", "concealed_kong", 1),
        tile("0p", "concealed_kong", 1, "down"),
        tile("3f", "flower"),
        tile("6f", "flower"),
    ]
    shown = set(range(len(tiles))) - {11}  # the flower 6f outside the picture
    assert synth.scene_hand(tiles, shown) == {
        "concealed": ["1m", "2m"],
        "melds": [
            {"type": "pung", "tiles": ["7z", "7z", "7z"], "open": True},
            {"type": "kong", "tiles": ["5p", "0p", "0p", "5p"], "open": False},
        ],
        "win_tile": "9s",
        "flowers": ["3f"],
    }
    assert synth.scene_hand(tiles, shown - {4}) is None  # a tile of a meld not shown: no hand to compare with
    assert synth.scene_hand([synth.Tile(0, None, np.zeros(2), 0.0, "flat")], {0}) is None


def test_white_strokes_of_a_dark_set_stay_visible_on_any_face():
    """The Black art set draws numerals and winds in white for its dark body: on a light face they are
    printed dark (they used to vanish, white on white), on a dark face they stay white."""
    face = np.zeros((800, 600, 4), np.uint8)
    cv2.putText(face, "3", (150, 600), cv2.FONT_HERSHEY_SIMPLEX, 16, (255, 255, 255, 255), 60)
    dark = ArtSet("Black", _body((30, 30, 30)), _body((220, 120, 40)), {"3m": face})
    pool = synth.FacePool([dark], [])
    rgba, light_ink = pool.art_by_class[CLASS_INDEX["3m"]][0]
    assert light_ink
    rng = np.random.default_rng(0)
    for face_color, want_dark in ((np.array([235.0, 232, 225]), True), (np.array([40.0, 40, 45]), False)):
        tile_set = pool.tile_set(rng, faces="art")
        tile_set.face_color = face_color
        tile_set.art_style.update(weight=0, ink=None)
        luminance = synth._print_art(rng, rgba, tile_set, light_ink).astype(float).mean(axis=2)
        strokes = np.abs(luminance - face_color.mean()) > 30
        assert strokes.mean() > 0.05, "the numeral is not seen on the face"
        assert (luminance[strokes].mean() < 60) if want_dark else (luminance[strokes].mean() > 200)


def test_the_dark_face_share_decides_how_many_riichi_sets_are_dark():
    """``dark_faces`` is the share of art sets printed on a dark face (the training scenes ask for more of
    them than the renderer's default); sets of real Hong Kong faces stay light."""
    art = small_pool().art
    rng = np.random.default_rng(3)

    def dark_share(share: float, faces: str) -> float:
        pool = synth.FacePool(art, [], dark_faces=share)
        return float(np.mean([pool.tile_set(rng, faces).face_color.mean() < 100 for _ in range(400)]))

    assert dark_share(0.0, "art") == 0.0
    assert dark_share(1.0, "art") == 1.0
    assert dark_share(1.0, "hk") == 0.0
    assert abs(dark_share(synth.DARK_FACES, "art") - synth.DARK_FACES) < 0.05
    assert abs(dark_share(0.3, "art") - 0.3) < 0.07


def test_the_training_command_takes_the_dark_face_share_as_a_share(capsys: pytest.CaptureFixture[str]):
    from vision.training.__main__ import TRAIN_DARK_FACES, build_parser

    parser = build_parser()
    assert parser.parse_args(["--data", "d", "--out", "o"]).dark_faces == TRAIN_DARK_FACES
    assert parser.parse_args(["--data", "d", "--out", "o", "--dark-faces", "0.5"]).dark_faces == 0.5
    for bad in ("1.5", "-0.1", "much"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--data", "d", "--out", "o", "--dark-faces", bad])
        assert "is not a share from 0 to 1" in capsys.readouterr().err


def test_each_classifier_of_the_training_command_has_its_stage_and_a_length_given_again_another_seed():
    from vision.training.__main__ import build_parser, classifier_runs

    parser = build_parser()
    assert parser.parse_args(["--data", "d", "--out", "o"]).cls_steps == [11000]
    assert parser.parse_args(["--data", "d", "--out", "o"]).det_further == []
    assert parser.parse_args(["--data", "d", "--out", "o", "--det-further", "18000", "9000"]).det_further == [
        18000,
        9000,
    ]
    steps = parser.parse_args(["--data", "d", "--out", "o", "--cls-steps", "30000", "36000", "30000"]).cls_steps
    runs = classifier_runs(steps, 1234)
    assert [(stage, length, draw) for stage, length, _, draw in runs] == [
        ("classifier-30000", 30000, 0),
        ("classifier-36000", 36000, 0),
        ("classifier-30000-2", 30000, 1),
    ]
    seeds = [seed for _, _, seed, _ in runs]
    # the first of each length keeps the command's seed (a model adding classifiers keeps its first ones)
    assert seeds[:2] == [1234, 1234] and seeds[2] != 1234
    assert classifier_runs(steps, 1234) == runs and classifier_runs(steps, 99)[2][2] != seeds[2]


def test_a_motion_blur_kernel_is_a_line_turned_to_its_angle_summing_to_one():
    flat = synth.line_kernel(5, 0.0, 1.0)
    assert flat.shape == (5, 5) and flat.sum() == pytest.approx(1.0)
    assert np.allclose(flat[2], 0.2) and np.allclose(np.delete(flat, 2, axis=0), 0.0)
    upright = synth.line_kernel(5, 90.0, 0.2)
    assert np.allclose(upright[:, 2], 0.2, atol=1e-6) and upright.sum() == pytest.approx(1.0)
    # the value drawn with changes the kernel only in its last bits
    assert np.allclose(synth.line_kernel(7, 33.0, 1.0), synth.line_kernel(7, 33.0, 1 / 7), atol=1e-6)


def test_orientation_counts_quarter_turns_clockwise():
    upright = np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float)  # TL TR BR BL, image y down
    assert synth._orientation(upright) == 0
    turned = np.array([[14, 0], [14, 10], [0, 10], [0, 0]], float)  # the top now points right
    assert synth._orientation(turned) == 1
    assert synth._orientation(upright[[2, 3, 0, 1]]) == 2


def test_top_down_camera_sees_a_flat_tile_upright():
    camera = synth.Camera(np.zeros(3), 10.0, math.pi / 2 - 1e-3, 0.0)
    (kind, corners, _normal) = synth._tile_quads(1.0, 1.3, 0.7)[0]
    assert kind == "face"
    pts = camera.project(corners + np.array([0, 0, 0.35]))
    assert synth._orientation(pts) == 0
    assert pts[:, 1].max() - pts[:, 1].min() > pts[:, 0].max() - pts[:, 0].min()  # taller than wide


def _standing_row(rng, pool, tile_set, size, **options):
    """A layout of five standing tiles, faces towards azimuth 0 (the hand layout's ``options`` unused)."""
    w, h = size
    return [
        synth._tile(rng, pool, tile_set, CLASS_INDEX["3m"], (k * (w + 0.02), 0.0), 0.0, "standing") for k in range(5)
    ]


@pytest.mark.parametrize(("azimuth", "expected"), [(0.0, "3m"), (math.pi, "back")])
def test_a_standing_row_seen_from_behind_shows_its_backs(
    pool: synth.FacePool, monkeypatch: pytest.MonkeyPatch, azimuth: float, expected: str
):
    """The back of a tile the camera sees is labelled "back", whatever the tile's pose (renderer version 4: the
    backs of a standing hand seen from behind were left unlabelled, so training taught both to box them and not)."""
    monkeypatch.setattr(synth, "_hand_layout", _standing_row)
    renderer = synth.SceneRenderer(pool, size=256)
    monkeypatch.setattr(renderer, "_view", lambda rng, standing: (0.35, azimuth))
    scene = renderer.render(np.random.default_rng(4), "art", "hand")
    assert len(scene.class_ids) >= 3
    assert {CLASSES[c] for c in scene.class_ids} == {expected}


def _standing_and_flat_rows(rng, pool, tile_set, size, **options):
    """Five standing tiles 3m, faces towards azimuth 0, and beside them five flat tiles 7z."""
    w, _ = size
    flat = [synth._tile(rng, pool, tile_set, CLASS_INDEX["7z"], (6 + k * (w + 0.02), 0.0), 0.0) for k in range(5)]
    return _standing_row(rng, pool, tile_set, size) + flat


def test_faces_seen_too_obliquely_to_label_are_boxed_as_unlabelled(
    pool: synth.FacePool, monkeypatch: pytest.MonkeyPatch
):
    """Seen from 11 degrees above the table, flat faces are drawn but too foreshortened to label: the scene boxes
    them apart (``unlabelled_boxes``), for an evaluation that counts a reading of them neither right nor wrong."""
    monkeypatch.setattr(synth, "_hand_layout", _standing_and_flat_rows)
    renderer = synth.SceneRenderer(pool, size=256)
    monkeypatch.setattr(renderer, "_view", lambda rng, standing: (0.2, 0.0))
    scene = renderer.render(np.random.default_rng(4), "art", "hand")
    assert {CLASSES[c] for c in scene.class_ids} == {"3m"}
    assert [CLASSES[c] for c in scene.unlabelled_class_ids] == ["7z"] * 5
    boxes = scene.unlabelled_boxes
    assert np.all(boxes >= 0) and np.all(boxes <= 256) and np.all(boxes[:, 2:] - boxes[:, :2] >= 2)
    assert box_iou(boxes, scene.boxes).max() < 0.1


def test_the_test_set_command_writes_the_unlabelled_faces_beside_the_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    small = small_pool()
    monkeypatch.setattr(render, "load_art", lambda data: small.art)
    monkeypatch.setattr(render, "load_crops", lambda folder: [])
    monkeypatch.setattr(synth, "_hand_layout", _standing_and_flat_rows)
    monkeypatch.setattr(synth.SceneRenderer, "_view", lambda self, rng, standing: (0.2, 0.0))
    out = tmp_path / "set"
    assert render.main(["--data", str(tmp_path), "--out", str(out), "--count", "2", "--layout", "hand"]) == 0
    for name in ("00000.txt", "00001.txt"):
        labelled = [line.split()[0] for line in (out / "labels" / name).read_text().splitlines()]
        unlabelled = [line.split()[0] for line in (out / "unlabelled" / name).read_text().splitlines()]
        assert labelled == [str(CLASS_INDEX["3m"])] * 5 and unlabelled == [str(CLASS_INDEX["7z"])] * 5


def test_the_test_set_command_draws_unseen_only_printed_sets(tmp_path: Path, capsys: pytest.CaptureFixture):
    out = tmp_path / "set"
    assert render.main(["--data", str(tmp_path), "--out", str(out), "--drawings", "unseen"]) == 2
    assert "--faces printed" in capsys.readouterr().err and not out.exists()


def test_winning_hands_are_complete_hands(pool: synth.FacePool):
    """``--hands winning``: every hand laid out is complete (the melds and the concealed tiles with the winning
    tile make four sets and a pair, or seven pairs), the concealed tiles sorted, with at most four copies of a
    tile and one red five of a suit; the default draws stay as they were (random tiles, 13 or 14)."""
    rng = np.random.default_rng(3)
    tile_set = pool.tile_set(rng, "art")
    for _ in range(200):
        tiles = synth._hand_layout(rng, pool, tile_set, (1.0, 1.35), winning=True)
        hand = synth.scene_hand(tiles, set(range(len(tiles))))
        assert is_complete(hand), hand
        kinds = [int(c[0]) or 5 for c in hand["concealed"]]
        suits = [c[1] for c in hand["concealed"]]
        assert sorted(zip(suits, kinds, strict=True)) == list(zip(suits, kinds, strict=True))
        every = [*hand["concealed"], hand["win_tile"], *(c for m in hand["melds"] for c in m["tiles"])]
        assert all(n == 1 for code, n in Counter(every).items() if code[0] == "0")


def test_taiwanese_hands_hold_sixteen_tiles_and_the_winning_one(pool: synth.FacePool):
    """``--hand-size 16``: complete hands are five sets and a pair (17 tiles, a meld counted as 3), with up to five
    melds; hands drawn at random hold 16 or 17 tiles."""
    rng = np.random.default_rng(5)
    tile_set = pool.tile_set(rng, "art")
    melds = set()
    for _ in range(100):
        tiles = synth._hand_layout(rng, pool, tile_set, (1.0, 1.35), winning=True, hand_size=16)
        hand = synth.scene_hand(tiles, set(range(len(tiles))))
        assert is_complete(hand, 16), hand
        melds.add(len(hand["melds"]))
        tiles = synth._hand_layout(rng, pool, tile_set, (1.0, 1.35), hand_size=16)
        drawn = synth.scene_hand(tiles, set(range(len(tiles))))
        assert len(drawn["concealed"]) + 1 + 3 * len(drawn["melds"]) in (16, 17)
    assert melds == {0, 1, 2, 3, 4, 5}
    with pytest.raises(ValueError, match="hand_size"):
        synth.SceneRenderer(pool, hand_size=14)


def test_a_pung_holding_a_red_five_is_a_pung_in_the_hand_file(pool: synth.FacePool):
    rng = np.random.default_rng(6)
    tile_set = pool.tile_set(rng, "art")
    tiles = []
    for k, code in enumerate(["5p", "0p", "5p", "4p", "0p", "6p"]):
        tiles.append(synth._tile(rng, pool, tile_set, CLASS_INDEX[code], (k * 1.1, 0.0), 0.0))
        tiles[-1].role = ("pung" if k < 3 else "chow", k // 3, CLASS_INDEX[code])
    hand = synth.scene_hand(tiles, set(range(len(tiles))))
    assert [m["type"] for m in hand["melds"]] == ["pung", "chow"]


def test_the_test_set_command_lays_out_winning_hands_only_in_hands(tmp_path: Path, capsys: pytest.CaptureFixture):
    out = tmp_path / "set"
    assert render.main(["--data", str(tmp_path), "--out", str(out), "--hands", "winning"]) == 2
    assert "--layout hand" in capsys.readouterr().err and not out.exists()
    assert render.main(["--data", str(tmp_path), "--out", str(out), "--hand-size", "16"]) == 2
    assert "--hand-size lays out hands: add --layout hand" in capsys.readouterr().err and not out.exists()


def test_discards_lie_strewn_beyond_the_hand_and_leave_its_draws_as_they_were(pool: synth.FacePool):
    """``--discards``: after the hand, 4 to 12 tiles with no role lying flat, a tile apart or more, beyond the far
    edge of the hand's tiles and across its width, each turned its own way."""
    rng = np.random.default_rng(3)
    tile_set = pool.tile_set(rng, "art")
    for _ in range(30):
        tiles = synth._hand_layout(rng, pool, tile_set, (1.0, 1.35), discards="strewn")
        hand = [t for t in tiles if t.role is not None]
        discards = tiles[len(hand) :]
        assert tiles[: len(hand)] == hand and all(t.role is None for t in discards)
        assert 4 <= len(discards) <= 12 and all(t.pose == "flat" for t in discards)
        centres = np.array([t.center for t in discards])
        assert centres[:, 1].min() > max(t.center[1] for t in hand) + 1.35 + 0.5 * 1.35 - 1e-9  # the player at -y
        xs = [t.center[0] for t in hand]
        assert centres[:, 0].min() >= min(xs) - 1 and centres[:, 0].max() <= max(xs) + 1
        apart = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(centres)) * 9
        assert apart.min() > 1.35 * 1.05
        assert len({round(t.yaw, 6) for t in discards}) == len(discards)


def test_a_pond_lies_in_touching_rows_of_six_beyond_the_hand_and_leaves_its_draws_as_they_were(
    pool: synth.FacePool,
):
    """``--discards pond``: after the hand, 6 to 18 tiles with no role lying flat in rows of 6 from the left, the
    tiles of a row touching, the rows beyond the far edge of the hand's tiles, the last one nearest it."""
    rng = np.random.default_rng(4)
    tile_set = pool.tile_set(rng, "art")
    sideways = 0
    for _ in range(30):
        tiles = synth._hand_layout(rng, pool, tile_set, (1.0, 1.35), discards="pond")
        alone = [t for t in tiles if t.role is not None]
        pond = tiles[len(alone) :]
        assert tiles[: len(alone)] == alone
        assert 6 <= len(pond) <= 18 and all(t.role is None and t.pose == "flat" for t in pond)
        rows = [pond[k : k + 6] for k in range(0, len(pond), 6)]
        ys = [float(np.median([t.center[1] for t in row])) for row in rows]
        assert ys == sorted(ys, reverse=True) and min(ys) > max(t.center[1] for t in alone) + 1.35 + 0.5 * 1.35 - 0.2
        for row in rows:
            x = [t.center[0] for t in row]
            assert all(0.98 <= b - a <= 1.22 for a, b in zip(x, x[1:], strict=False))  # touching, a sideways tile wider
        sideways += sum(abs(t.yaw) > 1 for t in pond)
    assert 0 < sideways < 30


def test_the_test_set_command_lays_discards_only_beside_hands(tmp_path: Path, capsys: pytest.CaptureFixture):
    out = tmp_path / "set"
    assert render.main(["--data", str(tmp_path), "--out", str(out), "--discards"]) == 2
    assert "--layout hand" in capsys.readouterr().err and not out.exists()


def test_a_sets_back_never_looks_like_its_face():
    """A face-down tile must not pass for a blank white dragon: the back of a set (plain or from the art, whose
    dark set has a back as black as its face) differs from the face colour by ``MIN_BACK_CONTRAST`` and is
    coloured (``MIN_BACK_SATURATION``), where faces are white, ivory or black."""
    dark_art = ArtSet("Black", _body((30, 30, 30)), _body((30, 30, 30)), {c: _face(c) for c in ART_CODES.values()})
    pool = synth.FacePool([dark_art, *small_pool().art], [], dark_faces=0.5)
    rng = np.random.default_rng(8)
    for _ in range(300):
        tile_set = pool.tile_set(rng, "art")
        back = tile_set.back_texture.reshape(-1, 3).mean(0)
        assert np.linalg.norm(back - tile_set.face_color) >= synth.MIN_BACK_CONTRAST * 0.75
        assert synth._saturation(tile_set.back_texture) >= synth.MIN_BACK_SATURATION * 0.75


def test_phone_scenes_see_standing_hands_from_in_front(pool: synth.FacePool):
    renderer = synth.SceneRenderer(pool, phone=True)
    rng = np.random.default_rng(0)
    azimuths = [renderer._view(rng, standing=True)[1] for _ in range(300)]
    assert np.percentile(np.abs(azimuths), 99) < math.pi / 2


def test_a_change_of_the_sets_hue_leaves_the_red_fives_red():
    """Sets printed in other inks keep their red fives red (a red five in green read as a plain five)."""
    face = np.zeros((800, 600, 4), np.uint8)
    face[200:600, 150:450] = (200, 30, 35, 255)  # a red stroke
    pool = synth.FacePool([ArtSet("Regular", _body((240, 240, 235)), _body((220, 120, 40)), {"0m": face})], [])
    rgba, _ = pool.art_by_class[CLASS_INDEX["0m"]][0]
    rng = np.random.default_rng(1)
    tile_set = pool.tile_set(rng, "art")
    tile_set.face_color = np.array([235.0, 232, 225])
    tile_set.art_style.update(hue=60.0, sat=1.0, ink=None, weight=0)
    for red_five, want_red in ((True, True), (False, False)):
        centre = synth._print_art(rng, rgba, tile_set, red_five=red_five)[70:90, 50:70].reshape(-1, 3).mean(0)
        assert (centre[0] > centre[1] + 100) == want_red


def test_the_training_command_without_fonts_stops_naming_the_packages(tmp_path: Path, capsys):
    """Printed sets need a CJK font: without one the command stops at once (before reading any photo) and says
    what to install; ``--printed-faces 0`` trains without them."""
    from vision.training.__main__ import TRAIN_PHONE_SCENES, TRAIN_PRINTED_FACES, build_parser, main

    (tmp_path / "fonts").mkdir()
    code = main(
        ["--data", str(tmp_path / "no-data"), "--out", str(tmp_path / "out"), "--fonts", str(tmp_path / "fonts")]
    )
    assert code == 2 and "apt-get install fonts-noto-cjk" in capsys.readouterr().err
    args = build_parser().parse_args(["--data", "d", "--out", "o"])
    assert (args.printed_faces, args.phone_scenes) == (TRAIN_PRINTED_FACES, TRAIN_PHONE_SCENES)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--data", "d", "--out", "o", "--printed-faces", "2"])
