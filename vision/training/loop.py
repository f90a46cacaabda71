"""What both training loops share: the arithmetic of the forward pass, the device and the stream of batches."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
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


def train_mode(net: torch.nn.Module, folded: bool) -> None:
    """Put ``net`` in training mode; a network trained on from its folded form (``folded``: each batch norm holds
    only a shift, ``nets.fold_batch_norm``) keeps its norms in eval mode, so that they stay frozen."""
    net.train()
    if folded:
        for module in net.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()


class _Made(IterableDataset):
    """Items ``make(first)`` .. ``make(count - 1)``, dealt round robin to the loader's workers: worker ``w`` of
    ``n`` makes items ``first + w, first + w + n, ...``, and the loader hands them back in that same round, so
    item ``k`` is ``make(k)`` whatever the number of workers."""

    def __init__(self, make: Callable[[int], Any], count: int, first: int = 0) -> None:
        self.make, self.count, self.first = make, count, first

    def __iter__(self) -> Iterator[Any]:
        info = get_worker_info()
        offset, stride = (0, 1) if info is None else (info.id, info.num_workers)
        for index in range(self.first + offset, self.count, stride):
            yield self.make(index)


def _as_made(item: Any) -> Any:
    return item


def produce(make: Callable[[int], Any], count: int, workers: int, pin: bool = False, first: int = 0) -> Iterator[Any]:
    """``make(first)``, ``make(first + 1)``, ... ``make(count - 1)`` in order (training batches, scenes): made here
    when ``workers`` is 0, else made ahead by that many processes (forked, so that they share the pictures held
    here instead of copying them; this process keeps one OpenCV thread from then on). ``make`` draws its random
    numbers from its index alone, so the items are the same either way, and a run that goes on from item
    ``first`` gets the items it would have got. ``pin`` puts the tensors in page-locked memory, for faster
    copies to a GPU."""
    if workers == 0:
        return (make(index) for index in range(first, count))
    # one OpenCV thread in each worker (torch's loader gives each one torch thread): set here, before the fork,
    # since a forked worker that resets OpenCV's thread pool can wait forever on a lock of this process's pool
    cv2.setNumThreads(1)
    loader = DataLoader(
        _Made(make, count, first),
        batch_size=None,
        collate_fn=_as_made,
        num_workers=workers,
        pin_memory=pin,
        prefetch_factor=4,
        multiprocessing_context="fork",
        generator=torch.Generator(),  # the workers' seeds, drawn apart from torch's stream (the networks' start)
    )
    return iter(loader)


class Snapshots:
    """Where a training loop saves its whole state every ``every`` batches (the network, the optimiser, the
    learning-rate schedule, torch's random numbers and the number of batches done) to one file, ``path``, so
    that a run stopped midway goes on from its last snapshot instead of from its first batch. Its batches are
    made from their index alone (``produce``), so the run that goes on trains as the one stopped would have. A
    snapshot holds the settings ``key`` of its run and is taken back only by a run with the same, and only
    where ``resume`` asks for it (it is saved either way)."""

    def __init__(self, path: Path, key: dict[str, Any], every: int, resume: bool = True) -> None:
        if every < 1:
            raise ValueError(f"snapshots every {every} batches: give 1 or more")
        self.path, self.key, self.every, self.resume = path, key, every, resume
        self._read: dict[str, Any] | None = None  # the snapshot as read from ``path``, until it is written anew

    def _state(self) -> dict[str, Any] | None:
        if not (self.resume and self.path.is_file()):
            return None
        if self._read is None:
            self._read = torch.load(self.path, map_location="cpu", weights_only=True)
        return self._read if self._read["key"] == self.key else None

    def found(self) -> int:
        """How many batches the snapshot a run goes on from had done; 0 where there is none to go on from."""
        state = self._state()
        return 0 if state is None else int(state["done"])

    def restore(self, net: torch.nn.Module, opt: torch.optim.Optimizer, sched: Any) -> int:
        """Put the state of the snapshot into ``net``, ``opt``, ``sched`` and torch's random numbers, and return
        the number of batches it had done; 0 (nothing changed) where there is none to go on from."""
        state = self._state()
        if state is None:
            return 0
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        torch.set_rng_state(state["rng"])
        return int(state["done"])

    def after(self, done: int, steps: int, net: torch.nn.Module, opt: torch.optim.Optimizer, sched: Any) -> None:
        """Save the state after ``done`` of ``steps`` batches where a snapshot is due (never after the last one:
        the finished network is saved as the stage's weights), through a file of its own, so that a run stopped
        while writing leaves the snapshot before it whole."""
        if done % self.every or done >= steps:
            return
        state = {
            "key": self.key,
            "done": done,
            "net": net.state_dict(),
            "opt": opt.state_dict(),
            "sched": sched.state_dict(),
            "rng": torch.get_rng_state(),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_name(self.path.name + ".part")
        torch.save(state, part)
        os.replace(part, self.path)
        self._read = None

    def remove(self) -> None:
        """Delete the snapshot, once the stage it belongs to is saved whole."""
        self.path.unlink(missing_ok=True)
        self._read = None


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
