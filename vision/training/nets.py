"""The two networks, in plain torch.

``TileDetector``: a small fully convolutional network (a residual backbone to stride 32, a feature pyramid back
to stride 8) that marks every tile's centre in a heatmap and, at each cell, the distances from that cell to the
four sides of the tile's box. It takes a uint8-range RGB picture (N, 3, H, W) and normalises inside.

``TileClassifier``: reads one tile cut from the photo (N, 3, 64, 64), gives logits over the 46 tile classes
plus "not a tile", and logits over the four face orientations (quarter turns clockwise).
"""

from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

from vision.training import CLASSIFIER_WIDTH, DETECTOR_WIDTH

#: Output stride of the detector.
STRIDE = 8
#: Side of the square crop the classifier reads.
CROP = 64


def conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    """Convolution, batch norm, ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Residual(nn.Module):
    """Two 3x3 convolutions with an identity shortcut."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.a = conv_bn(channels, channels)
        self.b = nn.Sequential(nn.Conv2d(channels, channels, 3, 1, 1, bias=False), nn.BatchNorm2d(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.b(self.a(x)))


class Normalize(nn.Module):
    """Pixel values 0..255 to roughly zero mean and unit spread."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x - 128.0) / 64.0


class TileDetector(nn.Module):
    """Tile centres and boxes at stride 8. Outputs (heatmap logits (N,1,h,w), log box sides (N,4,h,w)); ``width``
    channels in the first stage, 2, 3, 5 and 8 times as many in the later ones, 3 times in the feature pyramid."""

    def __init__(self, width: int = DETECTOR_WIDTH) -> None:
        super().__init__()
        c = (width, 2 * width, 3 * width, 5 * width, 8 * width)
        neck = 3 * width
        self.norm = Normalize()
        self.stem = nn.Sequential(conv_bn(3, c[0], 2), conv_bn(c[0], c[1], 2))
        self.s8 = nn.Sequential(conv_bn(c[1], c[2], 2), Residual(c[2]))
        self.s16 = nn.Sequential(conv_bn(c[2], c[3], 2), Residual(c[3]))
        self.s32 = nn.Sequential(conv_bn(c[3], c[4], 2), Residual(c[4]))
        self.context = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c[4], c[4], 1), nn.ReLU(inplace=True))
        self.lat32 = conv_bn(c[4], neck, k=1)
        self.lat16 = conv_bn(c[3], neck, k=1)
        self.lat8 = conv_bn(c[2], neck, k=1)
        self.mix16 = conv_bn(neck, neck)
        self.mix8 = conv_bn(neck, neck)
        self.head = conv_bn(neck, neck)
        self.out_hm = nn.Conv2d(neck, 1, 1)
        self.out_box = nn.Conv2d(neck, 4, 1)
        nn.init.constant_(self.out_hm.bias, -4.6)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.stem(self.norm(x))
        f8 = self.s8(x)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        f32 = f32 + self.context(f32)
        p = self.lat32(f32)
        p = self.mix16(self.lat16(f16) + F.interpolate(p, size=f16.shape[-2:], mode="nearest"))
        p = self.mix8(self.lat8(f8) + F.interpolate(p, size=f8.shape[-2:], mode="nearest"))
        p = self.head(p)
        return self.out_hm(p), self.out_box(p)


def fold_batch_norm(net: nn.Module) -> nn.Module:
    """``net`` (changed in place and returned) with each batch norm folded into the convolution before it: the
    convolution takes the norm's scale, the norm keeps only its shift (mean 0, variance 1, scale
    sqrt(1 + eps)), so the network in eval mode computes the same function. This is the form the ONNX export
    gives; a network trained on from it (``detection.train_detector``, ``start``) keeps its norms in eval mode."""
    with torch.no_grad():
        for module in net.modules():
            if not isinstance(module, nn.Sequential):
                continue
            layers = list(module.children())
            for conv, norm in zip(layers, layers[1:], strict=False):
                if not (isinstance(conv, nn.Conv2d) and isinstance(norm, nn.BatchNorm2d)) or conv.bias is not None:
                    continue
                scale = norm.weight / torch.sqrt(norm.running_var + norm.eps)
                conv.weight.mul_(scale[:, None, None, None])
                norm.bias.copy_(norm.bias - norm.running_mean * scale)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0)
                norm.weight.fill_(math.sqrt(1.0 + norm.eps))
    return net


class DetectorExport(nn.Module):
    """The detector as exported: heatmap probabilities (N, 1, h, w) and box sides in pixels (N, 4, h, w)."""

    def __init__(self, net: TileDetector) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, sides = self.net(x)
        return torch.sigmoid(logits), torch.exp(sides.clamp(-4.0, 5.0)) * STRIDE


class TileClassifier(nn.Module):
    """Class logits (N, classes) and orientation logits (N, 4) for tile crops (N, 3, 64, 64); ``width`` channels
    in the first stage (the cost of a crop grows with its square)."""

    def __init__(self, classes: int, width: int = CLASSIFIER_WIDTH) -> None:
        super().__init__()
        c = (width, 2 * width, 4 * width, 6 * width)
        self.norm = Normalize()
        self.features = nn.Sequential(
            conv_bn(3, c[0], 2),
            conv_bn(c[0], c[0]),
            conv_bn(c[0], c[1], 2),
            Residual(c[1]),
            conv_bn(c[1], c[2], 2),
            Residual(c[2]),
            conv_bn(c[2], c[3], 2),
            Residual(c[3]),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.drop = nn.Dropout(0.2)
        self.classes = nn.Linear(c[3], classes)
        self.orientation = nn.Linear(c[3], 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.drop(self.features(self.norm(x)))
        return self.classes(f), self.orientation(f)


class ClassifierExport(nn.Module):
    """The classifier as exported: class and orientation probabilities."""

    def __init__(self, net: TileClassifier) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        classes, orientation = self.net(x)
        return torch.softmax(classes, dim=1), torch.softmax(orientation, dim=1)
