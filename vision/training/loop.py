"""What both training loops share: the arithmetic of the forward pass, the device and the stream of batches."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import cv2
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


def bf16_native() -> bool:
    """Whether this CPU computes bfloat16 in hardware (AVX-512 BF16 or AMX), where its convolutions run two to three
    times as fast as in float32; elsewhere bfloat16 is emulated and slower than float32."""
    probes = ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    return any(getattr(torch.cpu, name, lambda: False)() for name in probes)


def autocast(bf16: bool, device: str = "cpu") -> torch.autocast:
    """The forward pass in bfloat16 (convolutions and matrix products; the losses stay float32) when ``bf16``."""
    return torch.autocast(torch.device(device).type, dtype=torch.bfloat16, enabled=bf16)


class _Made(IterableDataset):
    """Items ``make(0)`` .. ``make(count - 1)``, dealt round robin to the loader's workers: worker ``w`` of ``n``
    makes items ``w, w + n, ...``, and the loader hands them back in that same round, so item ``k`` is
    ``make(k)`` whatever the number of workers."""

    def __init__(self, make: Callable[[int], Any], count: int) -> None:
        self.make, self.count = make, count

    def __iter__(self) -> Iterator[Any]:
        info = get_worker_info()
        first, stride = (0, 1) if info is None else (info.id, info.num_workers)
        for index in range(first, self.count, stride):
            yield self.make(index)


def _as_made(item: Any) -> Any:
    return item


def produce(make: Callable[[int], Any], count: int, workers: int, pin: bool = False) -> Iterator[Any]:
    """``make(0)``, ``make(1)``, ... ``make(count - 1)`` in order (training batches, scenes): made here when
    ``workers`` is 0, else made ahead by that many processes (forked, so that they share the pictures held here
    instead of copying them; this process keeps one OpenCV thread from then on). ``make`` draws its random
    numbers from its index alone, so the items are the same either way. ``pin`` puts the tensors in page-locked
    memory, for faster copies to a GPU."""
    if workers == 0:
        return (make(index) for index in range(count))
    # one OpenCV thread in each worker (torch's loader gives each one torch thread): set here, before the fork,
    # since a forked worker that resets OpenCV's thread pool can wait forever on a lock of this process's pool
    cv2.setNumThreads(1)
    loader = DataLoader(
        _Made(make, count),
        batch_size=None,
        collate_fn=_as_made,
        num_workers=workers,
        pin_memory=pin,
        prefetch_factor=4,
        multiprocessing_context="fork",
        generator=torch.Generator(),  # the workers' seeds, drawn apart from torch's stream (the networks' start)
    )
    return iter(loader)


def device_of(name: str) -> torch.device:
    """The torch device called ``name`` ("cpu", "cuda", "cuda:1"); ValueError where this machine has none such."""
    try:
        device = torch.device(name)
    except RuntimeError as exc:
        raise ValueError(f"unknown device {name!r}") from exc
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {name!r} asked for, but torch sees no CUDA GPU here")
    if device.type not in ("cpu", "cuda"):
        raise ValueError(f"device {name!r}: training runs on 'cpu' or 'cuda'")
    return device
