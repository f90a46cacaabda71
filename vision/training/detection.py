"""Training the detector: picture sampling and augmentation, centre-and-box targets, losses, the loop.

Targets follow TTFNet (Liu et al. 2019): an elliptical Gaussian per tile on the stride-8 heatmap (its
proportions those of the box, so that long thin boxes of stretched photos get long thin peaks), the focal
loss of CenterNet on it, and at every cell inside a tile's Gaussian the distances to the four sides of its box,
learnt with a GIoU loss weighted by the Gaussian.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import torch

from vision.training import DETECTOR_WIDTH
from vision.training.loop import Snapshots, autocast, produce, train_mode
from vision.training.nets import STRIDE, TileDetector
from vision.training.synth import blur_or_shake

#: The side of the square the runtime gives the detector; training pictures are scaled around it.
DETECT_SIZE = 512
#: Training a detector from scratch (``train_detector``): the peak learning rate and the share of the batches
#: that warm up to it.
LR = 3e-3
WARMUP = 0.1
#: Training a detector on (``train_detector``, ``start``): the peak learning rate (a third of the first run's)
#: and the share of the batches that warm up to it.
FURTHER_LR = 1e-3
FURTHER_WARMUP = 0.05


@dataclass
class Picture:
    """A training picture held as JPEG bytes, with tile boxes (xyxy pixels) and the boxes of the faces it shows
    but does not label (``synth.Scene.unlabelled_boxes``; none known for the real photos)."""

    jpeg: bytes
    boxes: np.ndarray
    unlabelled: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))

    def decode(self) -> np.ndarray:
        return cv2.cvtColor(cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def encode(image: np.ndarray, quality: int = 95) -> bytes:
    """An RGB picture as JPEG bytes."""
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()


def color_jitter(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Brightness, contrast, colour balance and saturation changes; sometimes grey (table lookups, fast)."""
    img = image
    if rng.random() < 0.8:
        levels = np.arange(256, dtype=np.float32)
        contrast, brightness = rng.uniform(0.7, 1.3), rng.uniform(-40, 40)
        gains = rng.uniform(0.9, 1.1, 3)
        lut = np.stack([(levels - 128) * contrast * g + 128 + brightness for g in gains], axis=1)
        img = cv2.LUT(img, np.clip(lut, 0, 255).astype(np.uint8).reshape(256, 1, 3))
        grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
        saturation = 0.0 if rng.random() < 0.05 else rng.uniform(0.6, 1.4)
        img = cv2.addWeighted(img, saturation, grey, 1 - saturation, 0)
    return img


def spoil(rng: np.random.Generator, window: np.ndarray) -> np.ndarray:
    """A window spoilt further as a phone camera spoils photos, beyond the colours (``color_jitter``), each on a
    draw of its own: a fifth blurred out of focus (Gaussian, sigma 0.6 to 2.5 pixels) or another fifth shaken
    (motion blur along a line of 3 to 14 pixels at any angle), three tenths with sensor noise (sigma 2 to 12 of
    255) and three tenths saved as JPEG of quality 15 to 90 (its channels taken as they come)."""
    window = blur_or_shake(rng, window, 0.4, (0.6, 2.5), (3, 15))
    if rng.random() < 0.3:
        window = np.clip(window + rng.normal(0, rng.uniform(2, 12), window.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        _, buf = cv2.imencode(".jpg", window, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(15, 91))])
        window = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return np.ascontiguousarray(window)


def sample_window(rng: np.random.Generator, picture: Picture, crop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A ``crop`` x ``crop`` training window: the picture squeezed to about ``DETECT_SIZE`` (times a random
    scale and stretch), cut at random (mostly around a tile), turned by a multiple of 90 degrees, maybe
    mirrored, colour-jittered.

    Returns the window (crop, crop, 3) uint8, the boxes in it (tiles mostly outside the window dropped,
    those mostly inside clipped to it) and the boxes of the tiles it shows that are not to be learnt either way,
    clipped to it: the picture's unlabelled faces and the tiles the window cuts mostly off.
    """
    image = picture.decode()
    labelled = len(picture.boxes)
    boxes = np.concatenate([picture.boxes, picture.unlabelled]).astype(np.float64)
    h, w = image.shape[:2]
    scale = math.exp(rng.uniform(math.log(0.55), math.log(1.5)))
    stretch = math.exp(rng.normal(0, 0.12))
    sx, sy = DETECT_SIZE / w * scale * stretch, DETECT_SIZE / h * scale / stretch
    nw, nh = max(8, int(round(w * sx))), max(8, int(round(h * sy)))
    image = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR)
    boxes *= np.array([nw / w, nh / h, nw / w, nh / h])
    ih, iw = image.shape[:2]
    canvas = np.empty((crop, crop, 3), np.uint8)
    canvas[:] = rng.integers(0, 256, 3) if rng.random() < 0.5 else 114
    x0 = int(rng.integers(0, iw - crop + 1)) if iw > crop else -int(rng.integers(0, crop - iw + 1))
    y0 = int(rng.integers(0, ih - crop + 1)) if ih > crop else -int(rng.integers(0, crop - ih + 1))
    if labelled and rng.random() < 0.75:  # most windows hold tiles: put one tile's centre anywhere in it
        bx1, by1, bx2, by2 = boxes[int(rng.integers(labelled))]
        x0 = int((bx1 + bx2) / 2 - rng.uniform(0.05, 0.95) * crop)
        y0 = int((by1 + by2) / 2 - rng.uniform(0.05, 0.95) * crop)
    sx1, sy1 = max(x0, 0), max(y0, 0)
    sx2, sy2 = min(x0 + crop, iw), min(y0 + crop, ih)
    canvas[sy1 - y0 : sy2 - y0, sx1 - x0 : sx2 - x0] = image[sy1:sy2, sx1:sx2]
    boxes -= np.array([x0, y0, x0, y0])
    for _ in range(int(rng.integers(4))):  # 90 degrees clockwise: (x, y) -> (crop - y, x)
        canvas = np.rot90(canvas, -1)
        boxes = np.stack([crop - boxes[:, 3], boxes[:, 0], crop - boxes[:, 1], boxes[:, 2]], axis=1)
    if rng.random() < 0.5:
        canvas = canvas[:, ::-1]
        boxes = np.stack([crop - boxes[:, 2], boxes[:, 1], crop - boxes[:, 0], boxes[:, 3]], axis=1)
    canvas = color_jitter(rng, np.ascontiguousarray(canvas))
    if rng.random() < 0.15:
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.5, 1.5))
    area = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    clipped = np.clip(boxes, 0, crop)
    inside = np.prod(np.clip(clipped[:, 2:] - clipped[:, :2], 0, None), axis=1)
    keep = (inside >= 0.45 * np.maximum(area, 1e-6)) & (np.min(clipped[:, 2:] - clipped[:, :2], axis=1) >= 3)
    keep[labelled:] = False
    ignored = (inside > 0) & ~keep
    return canvas, clipped[keep].astype(np.float32), clipped[ignored].astype(np.float32)


def make_targets(
    boxes: np.ndarray, size: int, alpha: float = 0.54, ignored: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (1, n, n), box targets (4, n, n) as the boxes themselves (xyxy), their weights (n, n), and the
    cells whose heat counts as table where it is not a tile's (n, n: 1 counted, 0 not).

    Each box paints a Gaussian (sigma = alpha * side / 6 along each axis) on the stride-8 grid, exactly 1 at
    its centre cell; the cells it covers more than any smaller box regress that box. In the cells of each
    ``ignored`` box (those whose centre it holds, and its own centre's), the heat off the tiles' centres is
    learnt neither way.
    """
    n = size // STRIDE
    heat = np.zeros((n, n), np.float32)
    target = np.zeros((4, n, n), np.float32)
    weight = np.zeros((n, n), np.float32)
    counted = np.ones((n, n), np.float32)
    area_at = np.full((n, n), np.inf, np.float32)
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    for x1, y1, x2, y2 in (ignored if ignored is not None else np.zeros((0, 4))) / STRIDE:
        counted[(xs + 0.5 >= x1) & (xs + 0.5 <= x2) & (ys + 0.5 >= y1) & (ys + 0.5 <= y2)] = 0.0
        counted[min(int((y1 + y2) / 2), n - 1), min(int((x1 + x2) / 2), n - 1)] = 0.0
    for box in sorted(boxes, key=lambda b: -(b[2] - b[0]) * (b[3] - b[1])):
        x1, y1, x2, y2 = box / STRIDE
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        sx, sy = max(alpha * (x2 - x1) / 6, 0.3), max(alpha * (y2 - y1) / 6, 0.3)
        g = np.exp(-(((xs + 0.5 - cx) / sx) ** 2 + ((ys + 0.5 - cy) / sy) ** 2) / 2)
        g[min(int(cy), n - 1), min(int(cx), n - 1)] = 1.0
        heat = np.maximum(heat, g)
        area = (x2 - x1) * (y2 - y1)
        region = (g > 0.05) & (area < area_at)
        if not region.any():
            continue
        area_at[region] = area
        target[:, region] = box[:, None]
        w = g[region]
        weight[region] = w / w.sum() * math.log(max(area * STRIDE * STRIDE, 2.0))
    return heat[None], target, weight, counted


def focal_loss(logits: torch.Tensor, heat: torch.Tensor, counted: torch.Tensor | None = None) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, averaged over the tiles; the cells off the tiles' centres count
    only where ``counted`` (N, n, n) is 1 (``make_targets``)."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    if counted is not None:
        neg = neg * counted[:, None]
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def giou_loss(sides: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """GIoU loss of the boxes predicted at every weighted cell (sides: log distances / stride)."""
    n = sides.shape[-1]
    mask = weight > 0
    if not mask.any():
        return sides.sum() * 0
    grid = (torch.arange(n, dtype=sides.dtype, device=sides.device) + 0.5) * STRIDE
    cy, cx = torch.meshgrid(grid, grid, indexing="ij")
    d = torch.exp(sides.clamp(-4, 5)) * STRIDE
    pred = torch.stack([cx - d[:, 0], cy - d[:, 1], cx + d[:, 2], cy + d[:, 3]], dim=1)
    p = pred.permute(0, 2, 3, 1)[mask]
    t = target.permute(0, 2, 3, 1)[mask]
    w = weight[mask]
    lt, rb = torch.max(p[:, :2], t[:, :2]), torch.min(p[:, 2:], t[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(1)
    area_p, area_t = (p[:, 2:] - p[:, :2]).prod(1), (t[:, 2:] - t[:, :2]).prod(1)
    union = area_p + area_t - inter
    iou = inter / union.clamp(min=1e-6)
    enclose = (torch.max(p[:, 2:], t[:, 2:]) - torch.min(p[:, :2], t[:, :2])).prod(1)
    giou = iou - (enclose - union) / enclose.clamp(min=1e-6)
    return ((1 - giou) * w).sum() / w.sum().clamp(min=1e-6)


def make_batch(
    rng: np.random.Generator,
    real: list[Picture],
    synthetic: list[Picture],
    batch: int,
    crop: int,
    real_share: float,
    spoilt: bool = False,
    ignore: bool = False,
) -> tuple[torch.Tensor, ...]:
    """One batch of windows and their targets (``make_targets``), mixing real and synthetic pictures; each
    window also ``spoil``-ed where ``spoilt``; where ``ignore``, the heat on the tiles a window shows unlabelled
    or cuts mostly off (``sample_window``) is learnt neither way, elsewhere it is learnt as table."""
    images, heats, targets, weights, counts = [], [], [], [], []
    for _ in range(batch):
        source = real if (real and (not synthetic or rng.random() < real_share)) else synthetic
        image, boxes, ignored = sample_window(rng, source[int(rng.integers(len(source)))], crop)
        if spoilt:
            image = spoil(rng, image)
        heat, target, weight, counted = make_targets(boxes, crop, ignored=ignored if ignore else None)
        images.append(image.transpose(2, 0, 1))
        heats.append(heat)
        targets.append(target)
        weights.append(weight)
        counts.append(counted)
    return (
        torch.from_numpy(np.stack(images).astype(np.float32)).contiguous(memory_format=torch.channels_last),
        torch.from_numpy(np.stack(heats)),
        torch.from_numpy(np.stack(targets)),
        torch.from_numpy(np.stack(weights)),
        torch.from_numpy(np.stack(counts)),
    )


def train_detector(
    real: list[Picture],
    synthetic: list[Picture],
    steps: int,
    seed: int,
    batch: int = 16,
    crop: int = 384,
    lr: float | None = None,
    real_share: float = 0.5,
    bf16: bool = False,
    progress=None,
    device: str = "cpu",
    workers: int = 0,
    start: TileDetector | None = None,
    width: int = DETECTOR_WIDTH,
    snapshots: Snapshots | None = None,
    spoilt: bool = False,
    ignore: bool = False,
) -> TileDetector:
    """Train a detector for ``steps`` batches (AdamW, one-cycle learning rate peaking at ``lr``; the forward pass
    in bfloat16 when ``bf16``) on ``device``, the batches made by ``workers`` processes (``loop.produce``; each
    from its own random numbers, so the same whatever the number of workers). Returns the network on the CPU.

    From scratch (a network ``width`` channels wide in its first stage, the learning rate warming up over
    ``WARMUP`` of the batches to ``LR``), or on from ``start`` (changed in place; its own width), a detector whose
    batch norms are folded into its convolutions (``nets.fold_batch_norm``): they stay in eval mode, and the
    learning rate peaks lower after a shorter warm-up (``FURTHER_WARMUP``, ``FURTHER_LR``). ``lr`` given replaces
    either peak. With ``snapshots``, the state is saved every so many batches, and a snapshot of an earlier run
    is gone on from. ``spoilt``: every window is also spoilt as a phone camera spoils photos (``spoil``).
    ``ignore``: the tiles a window shows unlabelled or cuts mostly off are not learnt as table (``make_batch``)."""
    torch.manual_seed(seed)

    def make(step: int) -> tuple[torch.Tensor, ...]:
        rng = np.random.default_rng([seed, step])
        return make_batch(rng, real, synthetic, batch, crop, real_share, spoilt, ignore)

    net = (start if start is not None else TileDetector(width)).to(device=device, memory_format=torch.channels_last)
    lr = lr if lr is not None else (FURTHER_LR if start is not None else LR)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    warmup = FURTHER_WARMUP if start is not None else WARMUP
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=warmup)
    first = snapshots.restore(net, opt, sched) if snapshots is not None else 0
    stream = produce(make, steps, workers, pin=torch.device(device).type == "cuda", first=first)
    train_mode(net, folded=start is not None)
    for step, tensors in enumerate(stream, first):
        images, heat, target, weight, counted = (t.to(device, non_blocking=True) for t in tensors)
        with autocast(bf16, device):
            logits, sides = net(images)
        loss_hm = focal_loss(logits.float(), heat, counted)
        loss_box = giou_loss(sides.float(), target, weight)
        loss = loss_hm + 2.0 * loss_box
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
        opt.step()
        sched.step()
        if snapshots is not None:
            snapshots.after(step + 1, steps, net, opt, sched)
        if progress is not None:
            progress(step, {"heat": loss_hm.detach(), "box": loss_box.detach()})
    return net.eval().cpu()


def as_numpy_detector(net: TileDetector):
    """A function picture (H, W, 3) uint8 -> (heat (h, w), sides (4, h, w)) running ``net`` in torch."""
    from vision.training.nets import DetectorExport

    wrapped = DetectorExport(net).eval()

    def run(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1))[None].astype(np.float32))
        with torch.no_grad():
            heat, sides = wrapped(x)
        return heat[0, 0].numpy(), sides[0].numpy()

    return run


def detection_f1(run, pictures: list[Picture], threshold: float = 0.3, iou: float = 0.5) -> dict[str, float]:
    """Box-only precision, recall and F1 of a detector (``as_numpy_detector``) on whole pictures at 512."""
    from vision.detector import _resize_to, decode_heatmap, nms

    tp = fp = fn = 0
    for picture in pictures:
        image = picture.decode()
        h, w = image.shape[:2]
        heat, sides = run(_resize_to(image, (DETECT_SIZE, DETECT_SIZE)))
        boxes, scores = decode_heatmap(heat, sides, STRIDE, threshold, 300)
        if len(boxes):
            keep = nms(boxes, scores, 0.6)
            boxes = boxes[keep] * np.array([w, h, w, h]) / DETECT_SIZE
        matched = _match(boxes, picture.boxes, iou)
        tp += matched
        fp += len(boxes) - matched
        fn += len(picture.boxes) - matched
    precision = tp / max(tp + fp, 1)
    recall = tp / max(tp + fn, 1)
    return {"precision": precision, "recall": recall, "f1": 2 * precision * recall / max(precision + recall, 1e-9)}


def _match(pred: np.ndarray, truth: np.ndarray, iou: float) -> int:
    """How many predicted boxes match a distinct true box with IoU >= ``iou`` (greedy, best overlap first)."""
    from vision.detector import box_iou

    if len(pred) == 0 or len(truth) == 0:
        return 0
    overlaps = box_iou(pred, truth)
    count = 0
    while True:
        i, j = np.unravel_index(np.argmax(overlaps), overlaps.shape)
        if overlaps[i, j] < iou:
            return count
        count += 1
        overlaps[i, :] = -1
        overlaps[:, j] = -1
