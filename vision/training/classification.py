"""Training the classifier: a bank of tile crops, their augmentation, the losses and the loop.

Crops are cut around labelled boxes of the real training photos and of the synthetic scenes (with a wide
margin, so that training can move the window as the detector's boxes move), from the single-tile photos, and
around empty table and parts of tiles in the synthetic scenes (the "not a tile" class, which lets the runtime
drop a false detection).

Orientation: a crop whose face orientation is known (synthetic faces, single-tile photos) teaches the
orientation head; a face-down tile teaches only whether it lies sideways (half its target on the opposite
turn); crops from the real photos, which their augmentation may have mirrored, teach only the class.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from vision.detector import box_iou, crop_tiles
from vision.training import CLASSIFIER_WIDTH
from vision.training.loop import Snapshots, autocast, produce, train_mode
from vision.training.nets import CROP, TileClassifier
from vision.training.synth import blur_or_shake
from vision.types import CLASS_INDEX, CLASSES

#: Class index of "not a tile" (after the 46 tile classes).
NONE_ID = len(CLASSES)
NUM_OUTPUTS = len(CLASSES) + 1
#: Margin of the stored crops and of the runtime crops (fraction of the box's width and height per side).
BANK_MARGIN = 0.25
RUNTIME_MARGIN = 0.1
#: Side of the stored crops: the labelled box fills 96 / 1.5 = 64 pixels, about what the runtime's 64-pixel
#: crops give it (64 / 1.2), so the classifier learns on crops as sharp as the ones it reads.
BANK_SIZE = 96
#: Changes with the crops or their augmentation: part of the classifier stage's key (``--resume``).
#: 2: stored crops of 96 pixels (were 72), ink colour swaps.
RECIPE_VERSION = 2
#: Share of the crops (not the fives, whose red ink is their class) whose ink changes colour (``_swap_ink``).
INK_SWAP = 0.2
FIVES = {CLASS_INDEX[c] for c in ("5m", "5p", "5s", "0m", "0p", "0s")}
#: Training a classifier from scratch: the peak learning rate and the share of the batches that warm up to it.
LR = 3e-3
WARMUP = 0.1
#: Training a classifier on (``train_classifier``, ``start``; ``--cls-further``): the peak learning rate (a tenth
#: of the first run's) and the share of the batches that warm up to it. Chosen with the two classifiers of the
#: model then bundled trained on 6,000 batches with blurred crops (other seeds than the command's): at 1e-3 the
#: development phone set read F1 0.9746, at 3e-4 0.9770 (0.9763 before).
FURTHER_LR = 3e-4
FURTHER_WARMUP = 0.05
#: Share of the crops a classifier trained on (``--cls-further``) also blurs as a shaken or misfocused phone photo
#: blurs a small tile (``blur``): half of them out of focus, half shaken.
FURTHER_BLUR = 0.35
#: The side a crop is shrunk to where a classifier trained on (``--cls-small``) sees it as a tile photographed
#: small (``shrink``): 12 to 36 pixels, the tile 10 to 30 pixels wide inside the runtime's margin.
SMALL_SIDES = (12, 37)


@dataclass
class CropBank:
    """Stored crops (N, BANK_SIZE, BANK_SIZE, 3) uint8 with class, orientation (-1 unknown) and source."""

    crops: np.ndarray
    class_ids: np.ndarray
    orientation: np.ndarray
    source: np.ndarray

    @staticmethod
    def empty() -> CropBank:
        return CropBank(
            np.zeros((0, BANK_SIZE, BANK_SIZE, 3), np.uint8),
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
        )

    def __len__(self) -> int:
        return len(self.class_ids)

    @staticmethod
    def concat(banks: list[CropBank]) -> CropBank:
        return CropBank(
            np.concatenate([b.crops for b in banks]),
            np.concatenate([b.class_ids for b in banks]),
            np.concatenate([b.orientation for b in banks]),
            np.concatenate([b.source for b in banks]),
        )


def bank_from_image(
    image: np.ndarray,
    boxes: np.ndarray,
    class_ids: np.ndarray,
    orientation: np.ndarray,
    source: int,
    rng: np.random.Generator | None = None,
    negatives: int = 0,
    negative_source: int = -1,
) -> CropBank:
    """Crops of the labelled boxes of one picture (marked ``source``), and ``negatives`` crops of places that
    hold no whole tile (marked ``negative_source``)."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    crops = crop_tiles(image, boxes, BANK_SIZE, BANK_MARGIN).transpose(0, 2, 3, 1).astype(np.uint8)
    ids, orient = list(class_ids), list(orientation)
    extra = []
    if negatives and rng is not None and len(boxes):
        h, w = image.shape[:2]
        sizes = boxes[:, 2:] - boxes[:, :2]
        for _ in range(negatives * 4):
            bw, bh = sizes[int(rng.integers(len(sizes)))] * rng.uniform(0.6, 1.5, 2)
            if rng.random() < 0.5:  # next to a tile, half on it
                ref = boxes[int(rng.integers(len(boxes)))]
                cx = (ref[0] + ref[2]) / 2 + rng.choice([-1, 1]) * rng.uniform(0.55, 1.2) * (ref[2] - ref[0])
                cy = (ref[1] + ref[3]) / 2 + rng.normal(0, 0.5) * (ref[3] - ref[1])
            else:
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            cand = np.array([[cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]], np.float32)
            if box_iou(cand, boxes).max() < 0.15:
                extra.append(cand[0])
            if len(extra) >= negatives:
                break
    if extra:
        neg = crop_tiles(image, np.array(extra), BANK_SIZE, BANK_MARGIN).transpose(0, 2, 3, 1).astype(np.uint8)
        crops = np.concatenate([crops, neg])
        ids += [NONE_ID] * len(extra)
        orient += [-1] * len(extra)
    sources = np.full(len(ids), source, np.int64)
    sources[len(boxes) :] = negative_source
    return CropBank(crops, np.array(ids, np.int64), np.array(orient, np.int64), sources)


def augment(rng: np.random.Generator, stored: np.ndarray, orientation: int, class_id: int) -> tuple[np.ndarray, int]:
    """A CROP x CROP training crop from a stored crop: the window moved and resized as a detector's box
    would be, tilted a little, turned by quarter turns (the orientation label turns with it), coloured,
    blurred, noised. Returns (crop (CROP, CROP, 3) uint8, orientation or -1)."""
    s = BANK_SIZE
    inner = s / (1 + 2 * BANK_MARGIN)  # the labelled box's side in the stored crop
    jitter = rng.normal(0, 0.06, 4) * inner
    x1, y1 = (s - inner) / 2 + jitter[0], (s - inner) / 2 + jitter[1]
    x2, y2 = (s + inner) / 2 + jitter[2], (s + inner) / 2 + jitter[3]
    margin = RUNTIME_MARGIN * rng.uniform(0.6, 1.4)
    wx, wy = (x2 - x1) * (1 + 2 * margin), (y2 - y1) * (1 + 2 * margin)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    turns = int(rng.integers(4))
    angle = math.radians(rng.normal(0, 5)) + turns * math.pi / 2
    c, si = math.cos(angle), math.sin(angle)
    # output pixel -> stored pixel: about the centres, turned (content turns clockwise), scaled to the window
    a = np.diag([wx / CROP, wy / CROP]) @ np.array([[c, si], [-si, c]])
    offset = np.array([cx, cy]) - a @ np.array([CROP / 2, CROP / 2])
    matrix = np.concatenate([a, offset[:, None]], axis=1)
    out = cv2.warpAffine(
        stored, matrix, (CROP, CROP), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REFLECT
    )
    out = _colour(rng, out, class_id)
    r = rng.random()
    if r < 0.15:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    elif r < 0.35:
        small = int(rng.integers(16, 40))
        out = cv2.resize(cv2.resize(out, (small, small), interpolation=cv2.INTER_AREA), (CROP, CROP))
    if rng.random() < 0.3:
        out = np.clip(out + rng.normal(0, rng.uniform(2, 10), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.25:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        out = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return out, (orientation + turns) % 4 if orientation >= 0 else -1


def _colour(rng: np.random.Generator, image: np.ndarray, class_id: int) -> np.ndarray:
    levels = np.arange(256, dtype=np.float32)
    contrast, brightness = rng.uniform(0.65, 1.35), rng.uniform(-45, 45)
    gains = rng.uniform(0.85, 1.15, 3)
    lut = np.stack([(levels - 128) * contrast * g + 128 + brightness for g in gains], axis=1)
    img = cv2.LUT(image, np.clip(lut, 0, 255).astype(np.uint8).reshape(256, 1, 3))
    if rng.random() < 0.3 and class_id not in FIVES:
        hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(-25, 26))) % 180).astype(np.uint8)
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)
    if rng.random() < 0.5:
        grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
        saturation = rng.uniform(0.5, 1.4) if class_id not in FIVES else rng.uniform(0.8, 1.3)
        img = cv2.addWeighted(img, saturation, grey, 1 - saturation, 0)
    if rng.random() < INK_SWAP and class_id not in FIVES:
        img = _swap_ink(rng, img)
    return img


def _swap_ink(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """The same face printed in other inks: its dark strokes in a colour, or its coloured strokes in black (sets
    differ: the numeral of the characters is blue in one Hong Kong set and black in another). Only the strokes
    inside the tile's box change, not the table around it."""
    hsv = cv2.cvtColor(image, cv2.COLOR_RGB2HSV).astype(np.float32)
    h, w = image.shape[:2]
    inside = np.zeros((h, w), bool)
    inside[int(h * 0.12) : h - int(h * 0.12), int(w * 0.12) : w - int(w * 0.12)] = True
    face = np.percentile(hsv[..., 2][inside], 80)
    if rng.random() < 0.5:
        strokes = inside & (hsv[..., 2] < 0.7 * face) & (hsv[..., 1] < 70)
        hsv[..., 0] = np.where(strokes, rng.uniform(0, 180), hsv[..., 0])
        hsv[..., 1] = np.where(strokes, rng.uniform(120, 230), hsv[..., 1])
        hsv[..., 2] = np.where(strokes, np.minimum(hsv[..., 2] + rng.uniform(20, 70), 255), hsv[..., 2])
    else:
        strokes = inside & (hsv[..., 1] >= 70) & (hsv[..., 2] < 0.95 * face)
        hsv[..., 1] = np.where(strokes, hsv[..., 1] * 0.15, hsv[..., 1])
        hsv[..., 2] = np.where(strokes, hsv[..., 2] * rng.uniform(0.2, 0.45), hsv[..., 2])
    return cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2RGB)


def blur(rng: np.random.Generator, crop: np.ndarray, share: float = FURTHER_BLUR) -> np.ndarray:
    """A training crop (CROP x CROP) blurred, on one draw, as a shaken or misfocused phone photo blurs a tile
    the runtime enlarges to the crop's size (a tile 30 pixels wide in a 640-pixel photo is read at 64): half of
    ``share`` out of focus (Gaussian, sigma 1 to 3 pixels of the crop), the other half shaken (motion blur along a
    line of 4 to 14 pixels at any angle); the rest as it was. ``augment``'s own blur is milder (sigma up to
    1.3)."""
    return blur_or_shake(rng, crop, share, (1.0, 3.0), (4, 15))


def shrink(rng: np.random.Generator, crop: np.ndarray, share: float) -> np.ndarray:
    """A training crop (CROP x CROP) seen, on one draw with probability ``share``, as the runtime sees a tile
    photographed small: taken down to a side of ``SMALL_SIDES`` (area averaging, as a camera's pixels average),
    half of those saved there as JPEG of quality 40 to 90, and enlarged back to CROP as ``detector.crop_tiles``
    enlarges a small tile (bilinear); the rest as it was."""
    if rng.random() >= share:
        return crop
    side = int(rng.integers(*SMALL_SIDES))
    small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 91))])
        small = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)


def make_batch(
    rng: np.random.Generator,
    bank: CropBank,
    weights: np.ndarray,
    batch: int,
    blurred: bool = False,
    small: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Images (B, 3, CROP, CROP), class targets (B,) and orientation targets (B, 4; all zero = unknown); with
    ``blurred``, each crop after its augmentation also drawn for ``blur``; with ``small``, that share of them
    first seen as tiles photographed small (``shrink``)."""
    idx = rng.choice(len(bank), size=batch, p=weights)
    images = np.empty((batch, CROP, CROP, 3), np.uint8)
    classes = bank.class_ids[idx]
    orient = np.zeros((batch, 4), np.float32)
    for k, i in enumerate(idx):
        images[k], o = augment(rng, bank.crops[i], int(bank.orientation[i]), int(classes[k]))
        if small:
            images[k] = shrink(rng, images[k], small)
        if blurred:
            images[k] = blur(rng, images[k])
        if o >= 0:
            if classes[k] == CLASS_INDEX["back"]:
                orient[k, o] = orient[k, (o + 2) % 4] = 0.5
            else:
                orient[k, o] = 1.0
    return (
        torch.from_numpy(images.transpose(0, 3, 1, 2).astype(np.float32)),
        torch.from_numpy(classes),
        torch.from_numpy(orient),
    )


def source_weights(bank: CropBank, shares: dict[int, float]) -> np.ndarray:
    """Sampling probabilities giving each source its share of the batches (spread evenly inside a source)."""
    weights = np.zeros(len(bank))
    present = {s: shares[s] for s in np.unique(bank.source) if shares.get(int(s), 0) > 0}
    total = sum(present.values())
    for s, share in present.items():
        mask = bank.source == s
        weights[mask] = share / total / mask.sum()
    return weights / weights.sum()


def train_classifier(
    bank: CropBank,
    shares: dict[int, float],
    steps: int,
    seed: int,
    batch: int = 128,
    lr: float | None = None,
    bf16: bool = False,
    progress=None,
    device: str = "cpu",
    workers: int = 0,
    width: int = CLASSIFIER_WIDTH,
    snapshots: Snapshots | None = None,
    start: TileClassifier | None = None,
    blurred: bool = False,
    small: float = 0.0,
) -> TileClassifier:
    """Train a classifier for ``steps`` batches (AdamW, one-cycle learning rate peaking at ``lr``; the forward
    pass in bfloat16 when ``bf16``) on ``device``, the batches made by ``workers`` processes, saving its state
    with ``snapshots`` (as ``train_detector``'s). Returns the network on the CPU.

    From scratch (``width`` channels in its first stage, the learning rate warming up over ``WARMUP`` of the
    batches to ``LR``), or on from ``start`` (changed in place), a classifier whose batch norms are folded into
    its convolutions (``nets.fold_batch_norm``, or ``export.classifier_from_onnx``): they stay in eval mode, and
    the learning rate peaks at ``FURTHER_LR`` after ``FURTHER_WARMUP``. ``lr`` given replaces either peak.
    ``blurred``: the crops are also blurred as shaken or misfocused phone photos blur them (``blur``). ``small``: the
    share of the crops seen as tiles photographed small (``shrink``)."""
    torch.manual_seed(seed)
    weights = source_weights(bank, shares)

    def make(step: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return make_batch(np.random.default_rng([seed, step]), bank, weights, batch, blurred, small)

    net = (start if start is not None else TileClassifier(NUM_OUTPUTS, width)).to(device)
    lr = lr if lr is not None else (FURTHER_LR if start is not None else LR)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    warmup = FURTHER_WARMUP if start is not None else WARMUP
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=warmup)
    first = snapshots.restore(net, opt, sched) if snapshots is not None else 0
    stream = produce(make, steps, workers, pin=torch.device(device).type == "cuda", first=first)
    train_mode(net, folded=start is not None)
    for step, tensors in enumerate(stream, first):
        images, classes, orient = (t.to(device, non_blocking=True) for t in tensors)
        with autocast(bf16, device):
            class_logits, orient_logits = net(images)
        class_logits, orient_logits = class_logits.float(), orient_logits.float()
        loss_cls = F.cross_entropy(class_logits, classes, label_smoothing=0.05)
        known = orient.sum(1) > 0
        if known.any():
            log_p = F.log_softmax(orient_logits[known], dim=1)
            loss_orient = -(orient[known] * log_p).sum(1).mean()
        else:
            loss_orient = orient_logits.sum() * 0
        loss = loss_cls + 0.5 * loss_orient
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        if snapshots is not None:
            snapshots.after(step + 1, steps, net, opt, sched)
        if progress is not None:
            progress(step, {"class": loss_cls.detach(), "turn": loss_orient.detach()})
    return net.eval().cpu()


def evaluate_bank(nets: list[TileClassifier], bank: CropBank, batch: int = 256) -> dict[str, float]:
    """Class accuracy and orientation accuracy (where known, face-up tiles) on centred crops of a bank, of the
    classifiers' probabilities averaged (as the runtime averages them)."""
    correct = total = o_correct = o_total = 0
    inner = BANK_SIZE / (1 + 2 * BANK_MARGIN)
    window = inner * (1 + 2 * RUNTIME_MARGIN)
    lo = (BANK_SIZE - window) / 2
    for start in range(0, len(bank), batch):
        crops = bank.crops[start : start + batch]
        box = np.array([[lo, lo, lo + window, lo + window]] * len(crops), np.float32)
        images = np.stack([crop_tiles(c, box[:1], CROP, 0.0)[0] for c in crops])
        with torch.no_grad():
            outputs = [net(torch.from_numpy(images)) for net in nets]
        c = sum(torch.softmax(classes, dim=1) for classes, _ in outputs)
        o = sum(torch.softmax(turns, dim=1) for _, turns in outputs)
        ids = bank.class_ids[start : start + batch]
        correct += int((c.argmax(1).numpy() == ids).sum())
        total += len(ids)
        orient = bank.orientation[start : start + batch]
        known = (orient >= 0) & (ids != CLASS_INDEX["back"]) & (ids != NONE_ID)
        o_correct += int((o.argmax(1).numpy()[known] == orient[known]).sum())
        o_total += int(known.sum())
    return {"accuracy": correct / max(total, 1), "orientation_accuracy": o_correct / max(o_total, 1)}
