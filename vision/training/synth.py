"""Synthetic photos of mahjong tiles on a table, with their labels.

Each tile is a 3-D box (face, back and four sides, the body in two layers of colour as real tiles are made)
placed on a table plane in a layout that players make: a concealed row (lying or standing), melds set apart or
in a second row with a sideways claimed tile, concealed kongs with face-down ends, flowers apart, grids of
tiles and scattered discards. A pinhole camera at a random height, angle, roll and distance looks at it;
the picture may be stretched (as the real training photos are), lit from one side with soft shadows, glare,
blur, noise and JPEG artefacts.

Faces come from the art folders (riichi style, recoloured and restyled so that the model does not learn one
print), from real Hong Kong tiles (the single-tile crops and tiles cut from the real training photos) and, where
a ``FacePrinter`` is given, from prints made anew for each set out of fonts and drawn shapes (``faces.py``).

The label of a tile is the box around its face as seen (the back for a face-down tile), its class, and the
orientation of the face in the picture: how many quarter turns clockwise its top has been turned from
pointing up (-1 where unknown, e.g. for faces cut from photos whose augmentation flipped them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial

import cv2
import numpy as np

from scoring.tiles import NUM_KINDS
from vision.layout import HAND_SIZES
from vision.training.data import ArtSet, LabeledImage
from vision.training.faces import FacePrinter, PrintStyle, to_texture
from vision.types import CLASS_INDEX, CLASSES

#: Texture size of one face (width, height) in pixels.
TEX_W, TEX_H = 120, 160
#: Changes when the same seed renders different scenes: part of the training stages' keys (``--resume``).
#: 2: the white strokes of the dark art set are printed dark on a light face (they were white on white).
#: 3 (whole-tile boxes) was tried and dropped. 4: a back the camera sees is labelled "back" whatever the tile's
#: pose (the backs of a standing hand seen from behind were unlabelled), a set's back differs from its face
#: (``MIN_BACK_CONTRAST``), and phone scenes see standing tiles from in front. 5: backs are coloured
#: (``MIN_BACK_SATURATION``; black and white bodies dropped), and a set's change of hue leaves the red of the red
#: fives red (a red five in another ink was a plain five with a coloured numeral). 6: some printed sets carry a
#: corner index (``faces.INDEXED``). 7: the faces of the single-tile photos (hk-crops) carry no turn (several
#: were photographed upside down, and the classifier learnt the Hong Kong dots upside down from them).
RENDERER_VERSION = 7
BACK_ID = CLASS_INDEX["back"]
FACE_IDS = [i for i, code in enumerate(CLASSES) if code != "back"]
FLOWER_IDS = [CLASS_INDEX[f"{n}f"] for n in range(1, 9)]
#: The kinds of meld a hand layout lays out.
MELD_KINDS = ("chow", "pung", "kong", "concealed_kong")
RED_FIVE_IDS = [CLASS_INDEX[c] for c in ("0m", "0p", "0s")]
#: The odds of each kind of meld (``MELD_KINDS``) a hand layout lays out.
MELD_ODDS = (0.4, 0.35, 0.12, 0.13)
#: The share of complete hands without melds drawn as seven pairs (``_winning_hand``).
SEVEN_PAIRS_SHARE = 0.1
#: The share of riichi-style sets (faces from the art) printed on a dark face, as the art's Black set is drawn.
DARK_FACES = 0.12
#: Faces with no print a recolouring could erase (white dragon of the art is an empty face).
MIN_VISIBLE_FRACTION = 0.55
#: A face or back drawn but left unlabelled (``Scene.unlabelled_boxes``) of which the picture shows at least this
#: many pixels: a model reading it is neither right nor wrong.
UNLABELLED_MIN_PIXELS = 30
#: The least distance (RGB) between a set's face colour and the mean colour of its back: with the dark art set's
#: back (the same black as its face) on a dark-faced set, a face-down tile and a blank white dragon were the
#: same picture.
MIN_BACK_CONTRAST = 90.0
#: The least mean saturation (HSV, 0-255) of a back: backs are coloured, faces white, ivory or black, so that a
#: blank face (the art's white dragon) and a back differ in kind, not only in shade (renderer version 5).
MIN_BACK_SATURATION = 80.0


@dataclass
class Scene:
    """A rendered picture and its labels (boxes xyxy in pixels, class indices, orientation 0-3 or -1), and the
    hand it shows."""

    image: np.ndarray
    boxes: np.ndarray
    class_ids: np.ndarray
    orientation: np.ndarray
    #: the hand the layout shows (``scene_hand``), for hand layouts; None for the others
    hand: dict | None = None
    #: boxes (xyxy) and classes of the faces and backs the picture shows but its labels leave out: seen too
    #: obliquely, mostly hidden, or cut by the picture's edge (``UNLABELLED_MIN_PIXELS`` of them seen at least)
    unlabelled_boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    unlabelled_class_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


@dataclass
class Face:
    """A face texture (TEX_H x TEX_W RGB), its class and whether its top is known to be the texture's top."""

    texture: np.ndarray
    class_id: int
    oriented: bool = True


@dataclass
class TileSet:
    """The look of one set in one scene: how faces are printed and what colour the body is."""

    faces: str  # "art", "hk", "mixed" or "printed"
    face_color: np.ndarray
    body_color: np.ndarray
    back_fraction: float
    back_texture: np.ndarray
    art_style: dict = field(default_factory=dict)
    printed: dict[int, Face] = field(default_factory=dict)
    print_style: PrintStyle | None = None


class FacePool:
    """Every face texture the generator can print, by class.

    ``dark_faces``: the share of riichi-style (art) sets printed on a dark face. ``printer`` and
    ``printed_faces``: the share of sets printed anew from fonts (none without a printer).
    """

    def __init__(
        self,
        art: list[ArtSet],
        crops: list[tuple[np.ndarray, int]],
        photos: list[LabeledImage] | None = None,
        photo_crops_per_class: int = 60,
        seed: int = 0,
        dark_faces: float = DARK_FACES,
        printer: FacePrinter | None = None,
        printed_faces: float = 0.0,
    ) -> None:
        self.art = art
        self.dark_faces = dark_faces
        self.printer = printer
        self.printed_faces = printed_faces if printer is not None else 0.0
        # each face with whether its set draws in light ink (the Black set: white strokes for a dark tile)
        self.art_by_class: dict[int, list[tuple[np.ndarray, bool]]] = {}
        for art_set in art:
            light_ink = _is_dark(art_set.front)
            for code, rgba in art_set.faces.items():
                self.art_by_class.setdefault(CLASS_INDEX[code], []).append((_fit_rgba(rgba), light_ink))
        self.art_backs = [_fit_rgba(a.back)[..., :3] for a in art]
        self.hk_by_class: dict[int, list[Face]] = {}
        # the single-tile photos were taken turned either way up (their 6p and both 7p stand upside down), so
        # their top is unknown: scenes printing them give no turn for those tiles
        for image, cls in crops:
            self.hk_by_class.setdefault(cls, []).append(Face(_resize(image), cls, False))
        if photos:
            self._add_photo_crops(photos, photo_crops_per_class, np.random.default_rng(seed))

    def _add_photo_crops(self, photos: list[LabeledImage], per_class: int, rng: np.random.Generator) -> None:
        """Faces cut from real photos: tiles whose box has a tile's proportions, turned to portrait."""
        candidates: dict[int, list[tuple[LabeledImage, np.ndarray]]] = {}
        for item in photos:
            for box, cls in zip(item.boxes, item.class_ids, strict=True):
                w, h = box[2] - box[0], box[3] - box[1]
                ratio = max(w, h) / max(1.0, min(w, h))
                if min(w, h) >= 32 and 1.15 <= ratio <= 1.6:
                    candidates.setdefault(int(cls), []).append((item, box))
        cache: dict[str, np.ndarray] = {}
        for cls, items in candidates.items():
            for k in rng.permutation(len(items))[:per_class]:
                item, box = items[k]
                key = str(item.path)
                if key not in cache:
                    cache[key] = cv2.cvtColor(cv2.imread(key), cv2.COLOR_BGR2RGB)
                x1, y1, x2, y2 = box.astype(int)
                crop = cache[key][y1:y2, x1:x2]
                if crop.shape[1] > crop.shape[0]:
                    crop = np.rot90(crop, 1 if rng.random() < 0.5 else 3)
                self.hk_by_class.setdefault(cls, []).append(Face(_resize(crop), cls, False))
            if len(cache) > 400:
                cache.clear()

    def face(self, rng: np.random.Generator, cls: int, tile_set: TileSet) -> Face:
        """The face of class ``cls`` in the set ``tile_set`` (every copy of a tile in a set looks the same)."""
        if cls in tile_set.printed:
            return tile_set.printed[cls]
        tile_set.printed[cls] = self._new_face(rng, cls, tile_set)
        return tile_set.printed[cls]

    def _new_face(self, rng: np.random.Generator, cls: int, tile_set: TileSet) -> Face:
        if tile_set.print_style is not None and self.printer is not None and CLASSES[cls] != "1s":
            rgba = self.printer.face(rng, CLASSES[cls], tile_set.print_style)
            return Face(to_texture(rgba, tile_set.face_color, (TEX_W, TEX_H)), cls, True)
        # the one of bamboo of a printed set is a bird from the art or the real faces
        use_hk = tile_set.faces == "hk" or (tile_set.faces in ("mixed", "printed") and rng.random() < 0.5)
        if use_hk and cls in self.hk_by_class:
            pool = self.hk_by_class[cls]
            face = pool[int(rng.integers(len(pool)))]
            texture = _restyle_photo(rng, face.texture)
            return Face(texture, cls, face.oriented)
        arts = self.art_by_class[cls]
        rgba, light_ink = arts[int(rng.integers(len(arts)))]
        return Face(_print_art(rng, rgba, tile_set, light_ink, cls in RED_FIVE_IDS), cls, True)

    def tile_set(self, rng: np.random.Generator, faces: str | None = None) -> TileSet:
        """A random look for a set: face colour, body colours, back, and its print where ``faces`` (drawn at
        random when None) is "printed"."""
        if faces is None:
            rest = 1.0 - self.printed_faces
            shares = [0.5 * rest, 0.3 * rest, 0.2 * rest, self.printed_faces]
            faces = str(rng.choice(["art", "hk", "mixed", "printed"], p=shares))
        if rng.random() < self.dark_faces and faces == "art":
            face_color = rng.uniform(20, 70, 3) * np.array([1.0, 1.0, 1.05])
        else:
            base = rng.uniform(200, 252)
            tint = rng.normal(0, 1, 3) * np.array([3, 3, 3]) + np.array([2, 0, -12]) * rng.uniform(0, 1.2)
            face_color = np.clip(base + tint, 150, 255)
        palette = np.array(
            [
                [40, 120, 60],
                [30, 80, 160],
                [220, 180, 40],
                [230, 120, 30],
                [200, 40, 40],
                [230, 120, 160],
                [20, 130, 140],
                [120, 60, 160],
                [90, 160, 60],
                [160, 100, 60],
            ],
            np.float64,
        )
        # a set's back is coloured and never looks like its face (a face-down tile must not pass for a blank white
        # dragon, nor the other way round, whatever the face's colour)
        bodies = [c for c in palette if np.linalg.norm(c - face_color) >= MIN_BACK_CONTRAST]
        body = np.clip(bodies[int(rng.integers(len(bodies)))] + rng.normal(0, 18, 3), 0, 255)
        art_backs = [
            b
            for b in self.art_backs
            if np.linalg.norm(b.mean((0, 1)) - face_color) >= MIN_BACK_CONTRAST
            and _saturation(b) >= MIN_BACK_SATURATION
        ]
        if art_backs and rng.random() < 0.35:
            back = art_backs[int(rng.integers(len(art_backs)))]
            if rng.random() < 0.5:
                hsv = cv2.cvtColor(back, cv2.COLOR_RGB2HSV)
                hsv[..., 0] = (hsv[..., 0].astype(int) + int(rng.integers(180))) % 180
                back = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)
        else:
            back = _plain_back(rng, body)
        art_style = {
            "hue": float(rng.uniform(0, 180)) if rng.random() < 0.3 else float(rng.normal(0, 6)),
            "sat": float(rng.uniform(0.6, 1.3)),
            "ink": rng.uniform(0, 90, 3) if rng.random() < 0.4 else None,
            "scale": float(rng.uniform(0.72, 0.95)),
            "weight": int(rng.choice([-1, 0, 0, 0, 1])),
        }
        return TileSet(
            faces=faces,
            face_color=face_color,
            body_color=body,
            back_fraction=float(rng.uniform(0.25, 0.65)),
            back_texture=np.ascontiguousarray(back, np.uint8),
            art_style=art_style,
            print_style=self.printer.style(rng) if faces == "printed" and self.printer is not None else None,
        )


def _resize(image: np.ndarray) -> np.ndarray:
    return cv2.resize(np.ascontiguousarray(image), (TEX_W, TEX_H), interpolation=cv2.INTER_AREA)


def _fit_rgba(rgba: np.ndarray) -> np.ndarray:
    """The art (600 x 800 RGBA) reduced to twice the texture size, for printing at any scale."""
    return cv2.resize(rgba, (TEX_W * 2, TEX_H * 2), interpolation=cv2.INTER_AREA)


def _plain_back(rng: np.random.Generator, body: np.ndarray) -> np.ndarray:
    yy, xx = np.mgrid[0:TEX_H, 0:TEX_W].astype(np.float32)
    grad = 1.0 + 0.08 * ((yy / TEX_H) - 0.5) * rng.normal() + 0.05 * ((xx / TEX_W) - 0.5) * rng.normal()
    tex = body[None, None, :] * grad[..., None]
    if rng.random() < 0.3:
        pattern = np.sin(xx / rng.uniform(3, 9)) * np.sin(yy / rng.uniform(3, 9))
        tex += pattern[..., None] * rng.uniform(5, 25)
    if rng.random() < 0.2:
        cx, cy = TEX_W / 2, TEX_H / 2
        ring = np.abs(np.hypot(xx - cx, yy - cy) - rng.uniform(20, 45)) < rng.uniform(1.5, 4)
        tex[ring] = tex[ring] * 0.6 + 255 * 0.4
    return np.clip(tex + rng.normal(0, 2, tex.shape), 0, 255).astype(np.uint8)


def _is_dark(front: np.ndarray) -> bool:
    """Whether a body's front (RGBA art) is dark: its set draws the faces' plain strokes in white."""
    opaque = front[..., 3] > 128
    return bool(opaque.any()) and float(front[..., :3][opaque].mean()) < 100


def _print_art(
    rng: np.random.Generator, rgba: np.ndarray, tile_set: TileSet, light_ink: bool = False, red_five: bool = False
) -> np.ndarray:
    """Print an art face on a face of the set's colour, in the set's ink colours and stroke weight.

    Plain strokes keep their contrast with the face: the dark strokes of a light set turn light on a dark face,
    and the white strokes of a dark set (``light_ink``: the numerals of the characters, winds, bamboo) turn
    dark on a light one, where they would otherwise vanish. The red of a ``red_five`` keeps its hue."""
    style = tile_set.art_style
    face = np.empty((TEX_H, TEX_W, 3), np.float32)
    face[:] = tile_set.face_color
    yy, xx = np.mgrid[0:TEX_H, 0:TEX_W].astype(np.float32)
    face *= (1.0 + 0.04 * rng.normal() * (yy / TEX_H - 0.5))[..., None]
    scale = style["scale"] * rng.uniform(0.95, 1.05)
    aw, ah = int(TEX_W * scale), int(TEX_H * scale)
    art = cv2.resize(rgba, (aw, ah), interpolation=cv2.INTER_AREA).astype(np.float32)
    rgb, alpha = art[..., :3], art[..., 3:] / 255.0
    if style["weight"]:
        kernel = np.ones((2, 2), np.uint8)
        a8 = (alpha[..., 0] * 255).astype(np.uint8)
        a8 = cv2.dilate(a8, kernel) if style["weight"] > 0 else cv2.erode(a8, kernel)
        alpha = a8[..., None].astype(np.float32) / 255.0
    hsv = cv2.cvtColor(np.clip(rgb, 0, 255).astype(np.uint8), cv2.COLOR_RGB2HSV).astype(np.float32)
    red = red_five & (hsv[..., 1] > 80) & ((hsv[..., 0] < 12) | (hsv[..., 0] > 165))
    hsv[..., 0] = np.where(red, hsv[..., 0], (hsv[..., 0] + style["hue"]) % 180)
    hsv[..., 1] = np.clip(hsv[..., 1] * style["sat"], 0, 255)
    rgb = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB).astype(np.float32)
    if style["ink"] is not None:
        dark = (hsv[..., 1] < 60) & (hsv[..., 2] < 90)
        rgb[dark] = style["ink"]
    if tile_set.face_color.mean() < 100:
        if not light_ink:
            luminance = rgb.mean(axis=2, keepdims=True)
            rgb = np.where(luminance < 80, 255 - rgb * 0.3, rgb)
    elif light_ink:
        light = (hsv[..., 1] < 60) & (hsv[..., 2] > 150)
        rgb[light] = style["ink"] if style["ink"] is not None else (255 - rgb[light]) * 0.12
    x0 = (TEX_W - aw) // 2 + int(rng.integers(-3, 4))
    y0 = (TEX_H - ah) // 2 + int(rng.integers(-4, 5))
    x0, y0 = int(np.clip(x0, 0, TEX_W - aw)), int(np.clip(y0, 0, TEX_H - ah))
    region = face[y0 : y0 + ah, x0 : x0 + aw]
    region[:] = region * (1 - alpha) + rgb * alpha
    return np.clip(face, 0, 255).astype(np.uint8)


def _saturation(rgb: np.ndarray) -> float:
    """Mean HSV saturation (0-255) of an RGB picture."""
    return float(cv2.cvtColor(np.ascontiguousarray(rgb, np.uint8), cv2.COLOR_RGB2HSV)[..., 1].mean())


def _restyle_photo(rng: np.random.Generator, texture: np.ndarray) -> np.ndarray:
    """A small change of colour and crop of a real face, so that one photo gives many prints."""
    tex = texture.astype(np.float32)
    tex = tex * rng.uniform(0.9, 1.1, 3) + rng.normal(0, 6, 3)
    if rng.random() < 0.5:
        pad = int(rng.integers(1, 8))
        tex = cv2.resize(tex[pad:-pad, pad:-pad], (TEX_W, TEX_H))
    return np.clip(tex, 0, 255).astype(np.uint8)


# ----------------------------------------------------------------------------------------------- geometry


@dataclass
class Tile:
    """One tile in the world: class, pose and the face printed on it."""

    class_id: int
    face: Face | None
    center: np.ndarray  # x, y on the table
    yaw: float  # radians, turn about the vertical axis
    pose: str  # "flat", "down", "standing", "standing_back"
    lean: float = 0.0
    #: its part in a hand (``scene_hand``): "concealed", "win", "flower" or the kind of its meld ("chow", "pung",
    #: "kong", "concealed_kong"), the meld's number, and its class (a face-down tile's too); None outside a hand
    role: tuple[str, int, int] | None = None


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


_POSES = {
    "flat": np.eye(3),
    "down": np.diag([-1.0, 1.0, -1.0]),
    "standing": np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]]),
    "standing_back": np.array([[-1.0, 0, 0], [0, 0, 1], [0, 1, 0]]),
}


def _tile_quads(w: float, h: float, d: float) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The six faces of a tile box centred at the origin: (kind, 4 corners TL TR BR BL, outward normal).

    The face is at +z with its top towards +y; sides run from the face (first two corners) to the back.
    """
    x, y, z = w / 2, h / 2, d / 2
    return [
        ("face", np.array([[-x, y, z], [x, y, z], [x, -y, z], [-x, -y, z]]), np.array([0, 0, 1.0])),
        ("back", np.array([[x, y, -z], [-x, y, -z], [-x, -y, -z], [x, -y, -z]]), np.array([0, 0, -1.0])),
        ("side", np.array([[-x, y, z], [x, y, z], [x, y, -z], [-x, y, -z]]), np.array([0, 1.0, 0])),
        ("side", np.array([[x, -y, z], [-x, -y, z], [-x, -y, -z], [x, -y, -z]]), np.array([0, -1.0, 0])),
        ("side", np.array([[x, y, z], [x, -y, z], [x, -y, -z], [x, y, -z]]), np.array([1.0, 0, 0])),
        ("side", np.array([[-x, -y, z], [-x, y, z], [-x, y, -z], [-x, -y, -z]]), np.array([-1.0, 0, 0])),
    ]


class Camera:
    """A pinhole camera looking at ``target`` from ``elevation`` above the table, then a 2-D fit to the image."""

    def __init__(self, target: np.ndarray, distance: float, elevation: float, azimuth: float) -> None:
        horizontal = np.array([math.sin(azimuth), -math.cos(azimuth), 0.0])
        self.position = target + distance * (math.cos(elevation) * horizontal + np.array([0, 0, math.sin(elevation)]))
        forward = target - self.position
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, [0, 0, 1.0])
        if np.linalg.norm(right) < 1e-6:
            right = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        self.rotation = np.stack([right, -up, forward])
        self.affine = np.eye(3)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to image pixels (N, 2)."""
        cam = (points - self.position) @ self.rotation.T
        z = np.maximum(cam[:, 2:3], 1e-3)
        uv = np.concatenate([cam[:, :2] / z, np.ones((len(points), 1))], axis=1)
        return (uv @ self.affine.T)[:, :2]

    def depth(self, points: np.ndarray) -> np.ndarray:
        return (points - self.position) @ self.rotation[2]


# ------------------------------------------------------------------------------------------------ layouts


def _random_classes(rng: np.random.Generator, n: int, flowers: bool, red_fives: bool) -> list[int]:
    pool = [i for i in FACE_IDS if (flowers or i not in FLOWER_IDS) and (red_fives or i not in RED_FIVE_IDS)]
    return [int(pool[i]) for i in rng.integers(len(pool), size=n)]


def _hand_layout(
    rng: np.random.Generator,
    pool: FacePool,
    tile_set: TileSet,
    size: tuple,
    winning: bool = False,
    discards: str | None = None,
    hand_size: int = 13,
) -> list[Tile]:
    """A concealed row (its last tile, the winning one, set apart half the time), 0 to 4 melds beside it or in a
    second row, and flowers apart. The tiles are drawn at random (a row of 13 or 14 tiles but for the melds), or
    with ``winning`` as a complete hand (``_winning_hand``). ``discards`` adds the discards in the middle of the
    table, drawn after the hand, so the hand is the one drawn without them: ``"strewn"`` (``_discards``) or a
    riichi ``"pond"`` (``_pond``). ``hand_size`` 16 lays out a Taiwanese hand: 0 to 5 melds, a row of 16 or 17
    tiles but for the melds, five sets and a pair when complete (``HAND_SIZES``)."""
    w, h = size
    flowers = tile_set.faces != "art" or rng.random() < 0.4
    red = tile_set.faces != "hk" and rng.random() < 0.6
    n_melds = int(rng.choice([0, 0, 1, 1, 2, 3, 4] + ([5] if hand_size == 16 else [])))
    if winning:
        melds, concealed = _winning_hand(rng, n_melds, red, sets=hand_size // 3)
    else:
        melds = []
        for _ in range(n_melds):
            kind = rng.choice(MELD_KINDS, p=MELD_ODDS)
            first = _random_classes(rng, 1, False, red)[0]
            melds.append((str(kind), _meld_classes(str(kind), first)))
        n_concealed = max(1, hand_size + 1 - 3 * n_melds - int(rng.integers(0, 2)))
    standing = rng.random() < 0.3
    tiles: list[Tile] = []
    gap = rng.uniform(0.0, 0.06)
    x = 0.0
    if not winning:
        concealed = _random_classes(rng, n_concealed, False, red)
    for k, cls in enumerate(concealed):
        if k == len(concealed) - 1 and rng.random() < 0.5:
            x += rng.uniform(0.2, 0.9)
        pose = "standing" if standing else "flat"
        lean = rng.uniform(-0.25, 0.1) if standing else 0.0
        y = rng.normal(0, 0.02) + (0 if not standing else -h / 2)
        tiles.append(_tile(rng, pool, tile_set, cls, (x + w / 2, y), rng.normal(0, 0.02), pose, lean))
        tiles[-1].role = ("win" if k == len(concealed) - 1 else "concealed", -1, cls)
        x += w + gap + abs(rng.normal(0, 0.01))
    second_row = rng.random() < 0.5
    mx = rng.uniform(-1.0, 2.0) if second_row else x + rng.uniform(0.4, 1.5)
    my = -(h + rng.uniform(0.3, 1.6)) if second_row else 0.0
    if second_row and rng.random() < 0.5:
        my = h + rng.uniform(0.3, 1.6) + (h / 2 if standing else 0)
    for number, (kind, classes) in enumerate(melds):
        side = int(rng.integers(0, len(classes))) if kind != "concealed_kong" and rng.random() < 0.7 else -1
        for k, cls in enumerate(classes):
            face_down = kind == "concealed_kong" and (k in (0, 3)) != (rng.random() < 0.15)
            if k == side:
                tiles.append(
                    _tile(rng, pool, tile_set, cls, (mx + h / 2, my - (h - w) / 2), math.pi / 2 * rng.choice([1, -1]))
                )
                mx += h + gap
            else:
                pose = "down" if face_down else "flat"
                tiles.append(_tile(rng, pool, tile_set, cls, (mx + w / 2, my), rng.normal(0, 0.02), pose))
                mx += w + gap
            tiles[-1].role = (kind, number, cls)
        mx += rng.uniform(0.2, 1.2)
    if flowers and rng.random() < 0.6:
        fx, fy = rng.uniform(-1, 4), (my if second_row else 0) + rng.choice([-1, 1]) * (h + rng.uniform(0.5, 2))
        for cls in rng.choice(FLOWER_IDS, size=int(rng.integers(1, 5)), replace=False):
            tiles.append(_tile(rng, pool, tile_set, int(cls), (fx + w / 2, fy), rng.normal(0, 0.03)))
            tiles[-1].role = ("flower", -1, int(cls))
            fx += w + rng.uniform(0, 0.3)
    if discards == "pond":
        return tiles + _pond(rng, pool, tile_set, size, tiles)
    return tiles + (_discards(rng, pool, tile_set, size, tiles) if discards == "strewn" else [])


def _discards(rng: np.random.Generator, pool: FacePool, tile_set: TileSet, size: tuple, hand: list[Tile]) -> list[Tile]:
    """4 to 12 discards lying flat and face up, each turned at random, strewn a tile apart or more over a band as
    wide as the hand and 2.5 tiles deep, beginning 0.5 to 2.5 tiles beyond the far edge of the hand's tiles: no
    part of the hand (no role)."""
    w, h = size
    xs = [t.center[0] for t in hand]
    far = max(t.center[1] for t in hand) + h  # the player sits at -y (``Camera``: azimuth 0), the table's middle +y
    top = far + rng.uniform(0.5, 2.5) * h
    tiles: list[Tile] = []
    for cls in _random_classes(rng, int(rng.integers(4, 13)), False, tile_set.faces != "hk"):
        for _ in range(20):
            p = np.array([rng.uniform(min(xs) - w, max(xs) + w), top + rng.uniform(0.0, 2.5 * h)])
            if all(np.linalg.norm(p - t.center) > h * 1.05 for t in tiles):
                tiles.append(
                    _tile(rng, pool, tile_set, cls, (float(p[0]), float(p[1])), rng.uniform(-math.pi, math.pi))
                )
                break
    return tiles


def _pond(rng: np.random.Generator, pool: FacePool, tile_set: TileSet, size: tuple, hand: list[Tile]) -> list[Tile]:
    """A riichi pond: 6 to 18 discards lying flat and upright in touching rows of 6 from the left, the last row
    nearest the hand and filled in part, beginning 0.5 to 2 tiles beyond the far edge of the hand's tiles and
    centred on it; a third of the ponds hold a tile laid sideways (the riichi declaration). No part of the hand (no
    role)."""
    w, h = size
    xs = [t.center[0] for t in hand]
    near = max(t.center[1] for t in hand) + h + rng.uniform(0.5, 2.0) * h  # beyond the hand: +y (``_discards``)
    classes = _random_classes(rng, int(rng.integers(6, 19)), False, tile_set.faces != "hk")
    rows = [classes[k : k + 6] for k in range(0, len(classes), 6)]
    sideways = int(rng.integers(len(classes))) if rng.random() < 1 / 3 else -1
    left = (min(xs) + max(xs)) / 2 - 3 * w + rng.normal(0, 0.5)
    tiles: list[Tile] = []
    for r, row in enumerate(rows):
        x, y = left, near + (len(rows) - 1 - r) * (h + rng.uniform(0.0, 0.05))
        for cls in row:
            if len(tiles) == sideways:
                tiles.append(_tile(rng, pool, tile_set, cls, (x + h / 2, y - (h - w) / 2), math.pi / 2))
                x += h
            else:
                tiles.append(_tile(rng, pool, tile_set, cls, (x + w / 2, y), rng.normal(0, 0.02)))
                x += w
            x += rng.uniform(0.0, 0.04)
    return tiles


def scene_hand(tiles: list[Tile], shown: set[int]) -> dict | None:
    """The hand a layout shows, from its tiles' roles, in the JSON of contracts.md: ``concealed`` (the row without its
    last tile), ``melds`` (``type``, ``tiles`` and ``open``, false for a meld showing a face-down tile; three equal
    honours laid out as a chow are a pung, and so are three fives, one of them red), ``win_tile`` (the last tile of
    the row, set apart or not) and ``flowers``. ``shown``: the indices of the tiles the picture shows (labelled);
    flowers it does not show are left out. A face-down red five is a five (its colour cannot be seen, and a set has
    one red five of each suit). None where no tile has a role, or where a tile of the row or of a meld is not shown."""
    if any(t.role is not None and t.role[0] != "flower" and i not in shown for i, t in enumerate(tiles)):
        return None
    parts = [t.role for i, t in enumerate(tiles) if t.role is not None and i in shown]
    if not parts:
        return None
    melds: dict[int, list[tuple[str, int, bool]]] = {}
    for tile in tiles:
        if tile.role is not None and tile.role[0] in MELD_KINDS:
            down = tile.pose == "down"
            cls = CLASS_INDEX[CLASSES[tile.role[2]].replace("0", "5")] if down else tile.role[2]
            melds.setdefault(tile.role[1], []).append((tile.role[0], cls, down))
    return {
        "concealed": [CLASSES[cls] for part, _, cls in parts if part == "concealed"],
        "melds": [
            {
                "type": "kong"
                if len(group) == 4
                else "pung"
                if len({_plain(cls) for _, cls, _ in group}) == 1
                else "chow",
                "tiles": [CLASSES[cls] for _, cls, _ in group],
                "open": not any(down for _, _, down in group),
            }
            for _, group in sorted(melds.items())
        ],
        "win_tile": next((CLASSES[cls] for part, _, cls in parts if part == "win"), None),
        "flowers": [CLASSES[cls] for part, _, cls in parts if part == "flower"],
    }


def _plain(cls: int) -> str:
    """The code of a class, a red five as its plain five (a pung holding a red five is a pung)."""
    return CLASSES[cls].replace("0", "5")


def _meld_classes(kind: str, first: int) -> list[int]:
    """The classes of a meld of ``kind`` from its first tile (a chow of an honour is three of it)."""
    if kind == "chow":
        return [first] * 3 if CLASSES[first][1] == "z" else _chow(first)
    return [first] * (3 if kind == "pung" else 4)


def _winning_hand(
    rng: np.random.Generator, n_melds: int, red: bool, sets: int = 4
) -> tuple[list[tuple[str, list[int]]], list[int]]:
    """The melds laid out and the concealed tiles of a complete hand: ``n_melds`` melds, and concealed sets
    (chows and pungs) and a pair making ``sets`` sets with them (4; 5 for a Taiwanese 16-tile hand), or, for 4,
    seven pairs (``SEVEN_PAIRS_SHARE`` of the hands without melds); at most four copies of a tile. With ``red``, a
    five of each suit is red half the time. The concealed tiles come sorted as players sort them (by suit, then
    number), the winning tile, one of them at random, last. The classes of the tile kinds are the first
    ``NUM_KINDS``, in scoring's order of kinds."""
    while True:
        if sets == 4 and n_melds == 0 and rng.random() < SEVEN_PAIRS_SHARE:
            blocks = [("pair", [int(k)] * 2) for k in rng.choice(NUM_KINDS, size=7, replace=False)]
        else:
            kinds = [str(k) for k in rng.choice(MELD_KINDS, size=n_melds, p=MELD_ODDS)]
            kinds += [str(k) for k in rng.choice(["chow", "pung"], size=sets - n_melds, p=[0.6, 0.4])]
            blocks = [(k, _meld_classes(k, int(rng.integers(NUM_KINDS)))) for k in kinds]
            blocks.append(("pair", [int(rng.integers(NUM_KINDS))] * 2))
        copies = np.bincount([c for _, classes in blocks for c in classes], minlength=NUM_KINDS)
        if copies.max() <= 4:
            break
    if red:
        for five, red_five in zip((4, 13, 22), RED_FIVE_IDS, strict=True):
            places = [(b, k) for b, (_, classes) in enumerate(blocks) for k, c in enumerate(classes) if c == five]
            if places and rng.random() < 0.5:
                b, k = places[int(rng.integers(len(places)))]
                blocks[b][1][k] = red_five
    melds = blocks[:n_melds]
    concealed = [c for _, classes in blocks[len(melds) :] for c in classes]
    win = concealed.pop(int(rng.integers(len(concealed))))
    return melds, sorted(concealed, key=lambda c: (CLASSES[c][1], int(CLASSES[c][0]) or 5)) + [win]


def _chow(first: int) -> list[int]:
    code = CLASSES[first]
    number = int(code[0]) or 5
    start = min(number, 7)
    return [CLASS_INDEX[f"{n}{code[1]}"] for n in range(start, start + 3)]


def _grid_layout(rng: np.random.Generator, pool: FacePool, tile_set: TileSet, size: tuple) -> list[Tile]:
    w, h = size
    rows, cols = int(rng.integers(1, 7)), int(rng.integers(2, 10))
    gap_x, gap_y = rng.uniform(0, 0.1), rng.uniform(0, 0.15)
    turned = rng.random() < 0.15
    classes = _random_classes(rng, rows * cols, True, tile_set.faces != "hk")
    tiles = []
    for r in range(rows):
        row_yaw = math.pi if rng.random() < 0.1 else 0.0
        for c in range(cols):
            cls = classes[r * cols + c]
            pose = "down" if rng.random() < 0.05 else "flat"
            yaw = row_yaw + rng.normal(0, 0.03) + (math.pi / 2 * rng.integers(4) if turned else 0)
            tiles.append(
                _tile(
                    rng,
                    pool,
                    tile_set,
                    cls if pose == "flat" else BACK_ID,
                    (c * (w + gap_x), -r * (h + gap_y)),
                    yaw,
                    pose,
                )
            )
    return tiles


def _scatter_layout(rng: np.random.Generator, pool: FacePool, tile_set: TileSet, size: tuple) -> list[Tile]:
    w, h = size
    n = int(rng.integers(3, 25))
    extent = math.sqrt(n) * rng.uniform(1.6, 2.6)
    tiles: list[Tile] = []
    centers: list[np.ndarray] = []
    classes = _random_classes(rng, n, True, tile_set.faces != "hk")
    for cls in classes:
        for _ in range(20):
            p = rng.uniform(-extent, extent, 2)
            if all(np.linalg.norm(p - q) > h * 1.05 for q in centers):
                centers.append(p)
                pose = "down" if rng.random() < 0.12 else "flat"
                tiles.append(_tile(rng, pool, tile_set, cls, tuple(p), rng.uniform(-math.pi, math.pi), pose))
                break
    return tiles


def _wall_layout(rng: np.random.Generator, pool: FacePool, tile_set: TileSet, size: tuple) -> list[Tile]:
    """A row of tiles standing with their backs to the camera or lying face down, then a hand in front."""
    w, h = size
    tiles = []
    n = int(rng.integers(4, 15))
    standing = rng.random() < 0.5
    for k in range(n):
        pose = "standing_back" if standing else "down"
        tiles.append(_tile(rng, pool, tile_set, BACK_ID, (k * (w + 0.01), h * 1.5), 0.0, pose))
    return tiles + _hand_layout(rng, pool, tile_set, size)


def _tile(
    rng: np.random.Generator,
    pool: FacePool,
    tile_set: TileSet,
    cls: int,
    xy: tuple,
    yaw: float,
    pose: str = "flat",
    lean: float = 0.0,
) -> Tile:
    if pose in ("down", "standing_back"):
        return Tile(BACK_ID, None, np.array(xy, float), float(yaw), pose, lean)
    return Tile(cls, pool.face(rng, cls, tile_set), np.array(xy, float), float(yaw), pose, lean)


# ------------------------------------------------------------------------------------------------ textures


def _table_texture(rng: np.random.Generator, n: int = 384) -> np.ndarray:
    """A table top seen from above: felt, wood, a plain cloth or a felt mat in a wooden frame."""
    kind = rng.choice(["felt", "wood", "plain", "framed"], p=[0.35, 0.25, 0.2, 0.2])
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    low = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)

    def felt() -> np.ndarray:
        colors = [[30, 120, 60], [20, 90, 50], [30, 60, 130], [120, 30, 40], [60, 60, 60], [20, 20, 25]]
        base = np.array(colors[int(rng.integers(len(colors)))], np.float32) + rng.normal(0, 15, 3)
        tex = (
            base + low[..., None] * rng.uniform(3, 12) + rng.standard_normal((n, n, 1), np.float32) * rng.uniform(3, 12)
        )
        if rng.random() < 0.6:
            period = rng.uniform(2.5, 6)
            weave = np.sin(xx * n * 2 * np.pi / period) * np.sin(yy * n * 2 * np.pi / period)
            tex += weave[..., None] * rng.uniform(4, 14)
        return tex

    def wood() -> np.ndarray:
        base = np.array([rng.uniform(150, 220), rng.uniform(100, 160), rng.uniform(60, 110)], np.float32)
        warp = cv2.resize(rng.normal(0, 1, (4, 16)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)
        grain = np.sin((yy * rng.uniform(20, 60) + warp * 0.6) * 2 * np.pi)
        fine = cv2.GaussianBlur(rng.standard_normal((n, n), np.float32), (0, 0), sigmaX=6, sigmaY=0.6)
        tex = base * (1 + 0.08 * grain[..., None] + 0.08 * fine[..., None] + 0.05 * low[..., None])
        return np.ascontiguousarray(np.rot90(tex)) if rng.random() < 0.5 else tex

    def plain() -> np.ndarray:
        base = rng.uniform(150, 245) + rng.normal(0, 8, 3)
        return np.float32(base) + low[..., None] * 5 + rng.standard_normal((n, n, 1), np.float32) * 2.5

    if kind == "felt":
        tex = felt()
    elif kind == "wood":
        tex = wood()
    elif kind == "plain":
        tex = plain()
    else:
        tex = wood()
        inner = felt()
        m = rng.uniform(0.05, 0.3)
        mask = (xx > m) & (xx < 1 - m) & (yy > m) & (yy < 1 - m)
        tex[mask] = inner[mask]
    return np.clip(tex, 0, 255).astype(np.uint8)


def _side_texture(tile_set: TileSet, shade: float) -> np.ndarray:
    """A side of a tile: the face colour near the face, the body colour towards the back, a seam between."""
    tex = np.empty((32, 16, 3), np.float32)
    split = int(32 * (1 - tile_set.back_fraction))
    tex[:split] = tile_set.face_color * 0.97
    tex[split:] = tile_set.body_color
    tex[max(0, split - 1) : split + 1] *= 0.8
    return np.clip(tex * shade, 0, 255).astype(np.uint8)


def _rounded_mask(w: int, h: int, radius: float) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    r = max(1, int(radius))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask


_FACE_MASK = _rounded_mask(TEX_W, TEX_H, TEX_W * 0.09)


# ------------------------------------------------------------------------------------------------ renderer


LAYOUTS = ("hand", "grid", "scatter", "wall")


class SceneRenderer:
    """Renders random scenes of tiles; ``render(rng)`` gives one ``Scene``.

    ``phone``: only scenes as a player photographs a hand (a test set of the product's use), not the wider
    spread training draws from: the camera 17 to 52 degrees above standing tiles, 34 to 90 above flat ones,
    the whole layout in the picture with tiles up to 150 pixels across in a 640 picture (40 or more where the
    layout fits), no stretch. ``winning``: the hands laid out are complete hands (``_winning_hand``), not tiles
    drawn at random. ``discards``: the hands lie beside discards, ``"strewn"`` on the table (``_discards``) or
    in a riichi ``"pond"`` (``_pond``). ``hand_size``: 16 lays out Taiwanese hands (``HAND_SIZES``).
    """

    def __init__(
        self,
        pool: FacePool,
        size: int = 640,
        phone: bool = False,
        winning: bool = False,
        discards: str | None = None,
        hand_size: int = 13,
    ) -> None:
        if hand_size not in HAND_SIZES:
            raise ValueError(f"hand_size must be one of {HAND_SIZES}, not {hand_size}")
        self.pool = pool
        self.size = size
        self.phone = phone
        self.winning = winning
        self.discards = discards
        self.hand_size = hand_size

    def render(self, rng: np.random.Generator, faces: str | None = None, layout: str | None = None) -> Scene:
        """One random scene. ``faces`` forces the face source ("art", "hk" or "mixed"), ``layout`` the
        arrangement ("hand", "grid", "scatter" or "wall")."""
        for _ in range(10):
            scene = self._try_render(rng, faces, layout)
            if scene is not None:
                return scene
        raise RuntimeError("could not place a scene in the picture after 10 tries")

    def _try_render(self, rng: np.random.Generator, faces: str | None, layout: str | None) -> Scene | None:
        S = self.size
        tile_set = self.pool.tile_set(rng, faces)
        w, h = 1.0, rng.uniform(1.25, 1.45)
        d = rng.uniform(0.5, 0.85)
        chosen = rng.choice(LAYOUTS, p=[0.5, 0.2, 0.15, 0.15])
        hand = partial(_hand_layout, winning=self.winning, discards=self.discards, hand_size=self.hand_size)
        make = {"hand": hand, "grid": _grid_layout, "scatter": _scatter_layout, "wall": _wall_layout}
        tiles = make[str(layout or chosen)](rng, self.pool, tile_set, (w, h))
        if not tiles:
            return None
        centers = np.array([t.center for t in tiles])
        mid = (centers.min(0) + centers.max(0)) / 2
        radius = max(2.0, float(np.max(np.linalg.norm(centers - mid, axis=1))) + h)
        elevation, azimuth = self._view(rng, any(t.pose.startswith("standing") for t in tiles))
        camera = Camera(np.array([mid[0], mid[1], 0.0]), radius * rng.uniform(1.6, 6.0), elevation, azimuth)

        quads = self._tile_geometry(tiles, w, h, d)
        corners = np.concatenate([q[1] for tq in quads for q in tq])
        if np.any(camera.depth(corners) < 0.5):
            return None
        faces = np.stack([tq[0][1] if t.face is not None else tq[1][1] for t, tq in zip(tiles, quads, strict=True)])
        camera.affine = self._fit(rng, camera.project(corners), camera.project(faces.reshape(-1, 3)), S, self.phone)
        light = np.array([rng.normal(0, 0.6), rng.normal(0, 0.6), rng.uniform(0.6, 1.5)])
        light /= np.linalg.norm(light)
        ambient = rng.uniform(0.45, 0.75)

        image = self._background(rng, camera, mid, radius, S).astype(np.float32)
        self._shadows(rng, image, camera, tiles, w, h, d, light)
        ids = np.full((S, S), -1, np.int32)
        face_area = np.zeros(len(tiles))
        order = np.argsort([-camera.depth(np.array([[*t.center, 0.0]]))[0] for t in tiles])
        face_quads: dict[int, np.ndarray] = {}
        drawn: dict[int, tuple[np.ndarray, bool]] = {}  # every face or back drawn, labelled or not
        shows_back = np.zeros(len(tiles), bool)
        for index in order:
            tile = tiles[index]
            for kind, corners3, normal in quads[index]:
                to_camera = camera.position - corners3.mean(0)
                facing = float(normal @ to_camera) / (np.linalg.norm(to_camera) + 1e-9)
                if facing <= 0.02:
                    continue
                pts = camera.project(corners3)
                shade = ambient + (1 - ambient) * max(0.0, float(normal @ light))
                if kind == "side":
                    texture, mask = _side_texture(tile_set, 1.0), None
                elif kind == "face":
                    if tile.face is None:
                        texture, mask = tile_set.back_texture, _FACE_MASK
                    else:
                        texture, mask = tile.face.texture, _FACE_MASK
                else:
                    texture, mask = tile_set.back_texture, _FACE_MASK
                # the printed face, or the back (of a face-down tile, or of any tile seen from behind)
                label_kind = (kind == "face" and tile.face is not None) or kind == "back"
                tag = index * 2 + 1 if label_kind else index * 2
                area = _draw_quad(image, ids, texture, mask, pts, shade, tag)
                if label_kind:
                    drawn[index] = (pts, kind == "back")
                if label_kind and facing > 0.3:
                    face_area[index] = area
                    face_quads[index] = pts
                    shows_back[index] = kind == "back"
        visible = np.bincount(ids[ids >= 0].ravel(), minlength=2 * len(tiles))[1::2]
        self._glare(rng, image)
        image = _finish(rng, image)
        boxes, classes, orient, shown = [], [], [], set()
        for index, pts in face_quads.items():
            if face_area[index] < 30 or visible[index] < MIN_VISIBLE_FRACTION * face_area[index]:
                continue
            x1, y1 = np.clip(pts.min(0), 0, S)
            x2, y2 = np.clip(pts.max(0), 0, S)
            full = np.prod(pts.max(0) - pts.min(0))
            if (x2 - x1) * (y2 - y1) < 0.6 * full or min(x2 - x1, y2 - y1) < 4:
                continue
            tile = tiles[index]
            shown.add(index)
            boxes.append([x1, y1, x2, y2])
            classes.append(BACK_ID if shows_back[index] else tile.class_id)
            orient.append(_orientation(pts) if shows_back[index] or tile.face.oriented else -1)
        if not boxes:
            return None
        unlabelled, unlabelled_ids = [], []
        for index, (pts, back) in drawn.items():
            x1, y1 = np.clip(pts.min(0), 0, S)
            x2, y2 = np.clip(pts.max(0), 0, S)
            if index not in shown and visible[index] >= UNLABELLED_MIN_PIXELS and min(x2 - x1, y2 - y1) >= 2:
                unlabelled.append([x1, y1, x2, y2])
                unlabelled_ids.append(BACK_ID if back else tiles[index].class_id)
        return Scene(
            image,
            np.array(boxes, np.float32),
            np.array(classes, np.int64),
            np.array(orient, np.int64),
            scene_hand(tiles, shown),
            np.array(unlabelled, np.float32).reshape(-1, 4),
            np.array(unlabelled_ids, np.int64),
        )

    @staticmethod
    def _tile_geometry(tiles: list[Tile], w: float, h: float, d: float) -> list[list]:
        """World corners of every face of every tile."""
        base = _tile_quads(w, h, d)
        out = []
        for tile in tiles:
            pose = _POSES[tile.pose]
            if tile.lean:
                pose = _rot_x(tile.lean) @ pose
            rot = _rot_z(tile.yaw) @ pose
            lift = d / 2 if tile.pose in ("flat", "down") else h / 2 * math.cos(tile.lean)
            center = np.array([tile.center[0], tile.center[1], lift])
            out.append([(kind, c @ rot.T + center, rot @ n) for kind, c, n in base])
        return out

    def _view(self, rng: np.random.Generator, standing: bool) -> tuple[float, float]:
        """The camera's elevation above the table and its azimuth (radians; azimuth 0 is in front of standing
        tiles' faces) for a layout with or without ``standing`` tiles."""
        if self.phone:  # standing tiles from in front (from above, only their tops show), flat ones from above
            elevation = rng.uniform(0.3, 0.9) if standing else rng.uniform(0.6, 1.5707)
        elif standing and rng.random() < 0.6:
            elevation = rng.uniform(0.08, 0.6)
        else:
            elevation = rng.uniform(0.5, 1.5707) if rng.random() < 0.7 else rng.uniform(1.2, 1.5707)
        if (self.phone and standing) or rng.random() < 0.6:  # a player photographs a standing hand from in front
            return elevation, rng.normal(0, 0.5)
        return elevation, rng.uniform(-math.pi, math.pi)

    @staticmethod
    def _fit(rng: np.random.Generator, pts: np.ndarray, faces: np.ndarray, S: int, phone: bool) -> np.ndarray:
        """A 2-D transform (roll, stretch, scale, shift) that puts the projected scene into the picture.

        The scale gives the tiles a random size (mostly 24 to 150 pixels for a 640 picture) and lets a large
        layout run over the edges of the picture; for ``phone``, 40 to 150 pixels or smaller to show the whole
        layout, and no stretch.
        """
        roll = (
            0.0
            if rng.random() < 0.35
            else (rng.integers(4) * math.pi / 2 if rng.random() < 0.5 else rng.uniform(-math.pi, math.pi))
        )
        c, s = math.cos(roll), math.sin(roll)
        rot = np.array([[c, -s], [s, c]])
        stretch = 1.0
        r = 1.0 if phone else rng.random()
        if r < 0.4:
            stretch = math.exp(rng.normal(0, 0.25))
        elif r < 0.5:
            stretch = rng.uniform(2.5, 10) ** rng.choice([1, -1])
        scale_xy = np.array([math.sqrt(stretch), 1 / math.sqrt(stretch)])
        p = (pts @ rot.T) * scale_xy
        lo, hi = p.min(0), p.max(0)
        quads = ((faces @ rot.T) * scale_xy).reshape(-1, 4, 2)
        edge = float(np.median(np.max(quads.max(1) - quads.min(1), axis=1)))
        if phone:
            tile_px = math.exp(rng.uniform(math.log(40), math.log(150)))
        elif rng.random() < 0.9:
            tile_px = math.exp(rng.uniform(math.log(24), math.log(150)))
        else:
            tile_px = rng.uniform(12, 24)
        tile_px *= S / 640
        fit = rng.uniform(0.75 if phone else 0.6, 0.98) * S / max(float(np.max(hi - lo)), 1e-6)
        # or smaller, to hold the layout: all of it in a phone's picture, else at most 1.8 times the picture
        scale = min(tile_px / max(edge, 1e-6), fit * (1.0 if phone else rng.uniform(1.0, 1.8)))
        extent = (hi - lo) * scale
        room = S - extent
        offset = np.where(room > 0, rng.uniform(0, 1, 2) * np.maximum(room, 0), rng.uniform(0, 1, 2) * room)
        offset = offset - lo * scale
        if rng.random() < 0.1:
            offset += rng.normal(0, 0.08 * S, 2)
        m = np.eye(3)
        m[:2, :2] = np.diag(scale_xy * scale) @ rot
        m[:2, 2] = offset
        return m

    def _background(
        self, rng: np.random.Generator, camera: Camera, mid: np.ndarray, radius: float, S: int
    ) -> np.ndarray:
        far = _table_texture(rng, 128)
        image = cv2.resize(far, (S, S), interpolation=cv2.INTER_LINEAR)
        span = radius * rng.uniform(3, 8)
        tex = _table_texture(rng)
        n = tex.shape[0]
        for _ in range(8):
            world = np.array([[-span, span, 0], [span, span, 0], [span, -span, 0], [-span, -span, 0]])
            world[:, :2] += mid
            if np.all(camera.depth(world) > 0.05 * radius):
                break
            span *= 0.6
        else:
            return image
        dst = camera.project(world).astype(np.float32)
        src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(tex, matrix, (S, S), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        inside = cv2.warpPerspective(np.full((n, n), 255, np.uint8), matrix, (S, S)) > 127
        return np.where(inside[..., None], warped, image)

    @staticmethod
    def _shadows(rng, image, camera, tiles, w, h, d, light) -> None:
        if rng.random() < 0.25:
            return
        S = image.shape[0]
        mask = np.zeros((S, S), np.float32)
        dx, dy = -light[0] / max(light[2], 0.3), -light[1] / max(light[2], 0.3)
        for tile in tiles:
            height = d if tile.pose in ("flat", "down") else h
            rot = _rot_z(tile.yaw)[:2, :2]
            half = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
            if tile.pose.startswith("standing"):
                half[:, 1] *= d / h
            foot = half @ rot.T + tile.center
            shifted = foot + np.array([dx, dy]) * height
            poly = np.concatenate([foot, shifted])
            hull = cv2.convexHull(camera.project(np.c_[poly, np.zeros(len(poly))]).astype(np.float32))
            cv2.fillConvexPoly(mask, hull.astype(np.int32), 1.0)
        blur = rng.uniform(2, 10) * S / 640
        mask = cv2.GaussianBlur(mask, (0, 0), blur)
        image *= (1 - rng.uniform(0.25, 0.6) * mask)[..., None]

    @staticmethod
    def _glare(rng: np.random.Generator, image: np.ndarray) -> None:
        """A light gradient across the picture and a few soft highlights (computed small, then enlarged)."""
        S, n = image.shape[0], 160
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
        gx, gy = rng.normal(0, 0.6, 2)
        gain = 1 + 0.25 * rng.random() * (gx * (xx - 0.5) + gy * (yy - 0.5))
        light = np.zeros((n, n), np.float32)
        for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3]))):
            cx, cy = rng.uniform(0, 1, 2)
            sx, sy = rng.uniform(0.02, 0.15, 2)
            light += np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2) * rng.uniform(40, 160)
        gain = cv2.resize(gain.astype(np.float32), (S, S))
        light = cv2.resize(light, (S, S))
        image *= gain[..., None]
        image += light[..., None]


def _draw_quad(
    image: np.ndarray,
    ids: np.ndarray,
    texture: np.ndarray,
    mask: np.ndarray | None,
    pts: np.ndarray,
    shade: float,
    tag: int,
) -> float:
    """Warp ``texture`` onto the quad ``pts`` (TL TR BR BL), shaded; returns the quad's area in pixels."""
    S = image.shape[0]
    x1, y1 = np.floor(pts.min(0)).astype(int)
    x2, y2 = np.ceil(pts.max(0)).astype(int) + 1
    d1, d2 = pts[2] - pts[0], pts[3] - pts[1]
    area = 0.5 * abs(float(d1[0] * d2[1] - d1[1] * d2[0]))
    cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2, S), min(y2, S)
    if cx2 <= cx1 or cy2 <= cy1 or area < 1:
        return area
    th, tw = texture.shape[:2]
    edge = max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[3] - pts[0]), 1.0)
    if edge * 1.5 < max(tw, th):
        factor = max(edge * 1.5 / max(tw, th), 0.05)
        nw, nh = max(2, int(tw * factor)), max(2, int(th * factor))
        texture = cv2.resize(texture, (nw, nh), interpolation=cv2.INTER_AREA)
        if mask is not None:
            mask = cv2.resize(mask, (nw, nh), interpolation=cv2.INTER_AREA)
        th, tw = nh, nw
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    dst = (pts - np.array([cx1, cy1])).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    size = (cx2 - cx1, cy2 - cy1)
    warped = cv2.warpPerspective(texture, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha_src = mask if mask is not None else np.full((th, tw), 255, np.uint8)
    alpha = cv2.warpPerspective(alpha_src, matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    region = image[cy1:cy2, cx1:cx2]
    a = alpha[..., None]
    region[:] = region * (1 - a) + warped.astype(np.float32) * shade * a
    ids[cy1:cy2, cx1:cx2][alpha > 0.5] = tag
    return area


def _orientation(pts: np.ndarray) -> int:
    """Quarter turns clockwise of a face whose corners TL TR BR BL are ``pts`` (image y points down)."""
    up = (pts[0] + pts[1]) / 2 - (pts[2] + pts[3]) / 2
    angle = math.degrees(math.atan2(up[0], -up[1]))
    return int(round(angle / 90.0)) % 4


def line_kernel(length: int, angle: float, value: float) -> np.ndarray:
    """A motion blur's kernel (``length`` x ``length``, summing to 1): a line ``length`` pixels long through the
    middle, turned ``angle`` degrees, drawn with ``value`` before it is turned and the whole is divided by its sum
    (the value changes the result only in its last bits; each caller keeps its own, so that the pictures it
    made before stay the same to the bit)."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = value
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    return kernel / max(kernel.sum(), 1e-6)


def blur_or_shake(
    rng: np.random.Generator,
    image: np.ndarray,
    share: float,
    sigma: tuple[float, float],
    length: tuple[int, int],
) -> np.ndarray:
    """``image`` blurred on one draw as a misfocused or shaken camera blurs it: half of ``share`` out of focus
    (Gaussian, sigma drawn from ``sigma``), the other half shaken (``line_kernel``, its length drawn from
    ``length``, high end excluded, at any angle); the rest as it was. The augmentation of both training loops
    (``detection.spoil``, ``classification.blur``)."""
    r = rng.random()
    if r < share / 2:
        return cv2.GaussianBlur(image, (0, 0), rng.uniform(*sigma))
    if r < share:
        return cv2.filter2D(image, -1, line_kernel(int(rng.integers(*length)), rng.uniform(0, 180), 1.0))
    return image


def _finish(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Colour balance, blur, noise and JPEG, as a phone camera adds them."""
    image = image * (rng.uniform(0.85, 1.15, 3) * rng.uniform(0.7, 1.25)).astype(np.float32)
    r = rng.random()
    if r < 0.25:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.6, 2.2))
    elif r < 0.35:
        k = int(rng.integers(3, 9))
        image = cv2.filter2D(image, -1, line_kernel(k, rng.uniform(0, 180), 1.0 / k))
    if rng.random() < 0.6:
        image = image + rng.standard_normal(image.shape, np.float32) * rng.uniform(1, 7)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.15:
        S = image.shape[0]
        small = int(S * rng.uniform(0.35, 0.7))
        image = cv2.resize(cv2.resize(image, (small, small), interpolation=cv2.INTER_AREA), (S, S))
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        image = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return image
