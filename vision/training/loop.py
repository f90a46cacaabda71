"""What both training loops share: the arithmetic of the forward pass."""

from __future__ import annotations

import torch


def bf16_native() -> bool:
    """Whether this CPU computes bfloat16 in hardware (AVX-512 BF16 or AMX), where its convolutions run two to three
    times as fast as in float32; elsewhere bfloat16 is emulated and slower than float32."""
    probes = ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    return any(getattr(torch.cpu, name, lambda: False)() for name in probes)


def autocast(bf16: bool) -> torch.autocast:
    """The forward pass in bfloat16 (convolutions and matrix products; the losses stay float32) when ``bf16``."""
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16)
