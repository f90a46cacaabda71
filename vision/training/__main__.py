"""Train the tile model from scratch and export it: ``python -m vision.training --data DATA_DIR --out models/``.

DATA_DIR is the shared data folder (``hk-photos/train``, ``hk-crops``, ``art-riichi-cc0``,
``art-riichi-flowers-ccby``); ``hk-photos/valid`` is never read. Some synthetic sets are printed from the Chinese and
Japanese fonts under ``--fonts`` (``vision/training/faces.py``). The steps, each with a progress bar:
render synthetic scenes, train the detector, cut the crops, train the classifier (one for each number of
``--cls-steps``; the runtime averages their outputs), export the networks to ONNX (checked against torch; the
classifiers quantised to 8 bits) with ``model.json``, and measure them on synthetic scenes rendered apart.
"""

from __future__ import annotations

import argparse
import json
import pickle
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from tqdm import tqdm

from vision.detector import MODEL_JSON, classifier_files
from vision.training import CLASSIFIER_WIDTH, DETECTOR_WIDTH, SNAPSHOT_EVERY
from vision.training.data import DataError
from vision.training.faces import DEFAULT_FONT_FOLDER, FacePrinter, FontError
from vision.training.synth import DARK_FACES

if TYPE_CHECKING:  # torch is imported only once training starts
    from vision.training.classification import CropBank
    from vision.training.loop import Snapshots

#: The detection threshold the command writes into model.json by default (``--det-threshold``): chosen on the
#: development phone set for the models of 20261205 (MODEL_CARD.md, "Weak boxes and weak tiles are left out").
DETECTION_THRESHOLD = 0.45
#: The training scenes print more riichi-style sets on dark faces than the renderer does by default: with
#: its 0.12, a detector trained on them boxed only the light strokes of dark tiles (F1 0.61 on the dark
#: scenes of the synthetic phone set seed 777, 0.93 on the others).
TRAIN_DARK_FACES = 0.3
#: The share of training scenes whose sets are printed anew from fonts (``faces.py``): the model bundled before
#: them, trained on the art and the real Hong Kong faces alone, read sets printed that way at F1 0.56 (synthetic
#: phone photos), against 0.92 for the art it was trained on; one trained with a fifth of its sets printed read
#: prints of fonts it never saw at 0.82.
TRAIN_PRINTED_FACES = 0.3
#: The share of training scenes made as a player photographs a hand (``SceneRenderer(phone=True)``); the others
#: are the wider spread (walls, grids, scattered tiles, grazing views, stretched pictures). The default command
#: with 0.25, then 0.5 (2 cores, otherwise the same): synthetic phone photos seed 777 F1 0.945 -> 0.953 (exact
#: hands 133 -> 144 of 208).
TRAIN_PHONE_SCENES = 0.5


def _share(text: str) -> float:
    """A number from 0 to 1, for argparse."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share from 0 to 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m vision.training", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder")
    parser.add_argument("--out", type=Path, required=True, help="folder for the ONNX files and model.json")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--scenes", type=int, default=4000, help="synthetic scenes to render (default 4000)")
    parser.add_argument("--det-steps", type=int, default=7000, help="detector batches of 16 (default 7000)")
    parser.add_argument(
        "--det-further",
        type=int,
        nargs="+",
        default=[],
        help="detector batches trained on after the first --det-steps, its batch norms folded and frozen, the "
        "learning rate peaking at a third (default: none); several numbers train on in that many stages, each "
        "one warming up again from the last",
    )
    parser.add_argument(
        "--det-spoil-from",
        type=int,
        default=None,
        metavar="STAGE",
        help="detector stages from this one on (0: the first, of --det-steps; 1, 2 ...: those of --det-further) "
        "also train on windows spoilt as a phone camera spoils photos: out of focus, shaken, noised, saved as "
        "rough JPEG (default: none; with --det-from, as that model's stages were)",
    )
    parser.add_argument(
        "--det-ignore-from",
        type=int,
        default=None,
        metavar="STAGE",
        help="detector stages from this one on (numbered as for --det-spoil-from) learn neither way the heat on the "
        "tiles a training window shows but does not label: the faces a synthetic scene shows too obliquely, "
        "mostly hidden or cut by its edge, and the tiles the window cuts mostly off (default: none; they are "
        "learnt as table; with --det-from, as that model's stages were)",
    )
    parser.add_argument(
        "--det-from",
        type=Path,
        default=None,
        metavar="MODEL_DIR",
        help="take the detector of the model in this folder (its ONNX file, for a model whose torch weights are "
        "gone) instead of training one from scratch: its stages stand for --det-steps and the first numbers of "
        "--det-further, which are then that model's; --det-further gives the stages to train on after them "
        "(default: none, the detector as it is, to train classifiers for)",
    )
    parser.add_argument(
        "--det-threshold",
        type=float,
        default=DETECTION_THRESHOLD,
        help=f"the detection score under which a box is not read, written into model.json (default "
        f"{DETECTION_THRESHOLD}; choose it for each model on a development set, as MODEL_CARD.md does)",
    )
    parser.add_argument(
        "--cls-steps",
        type=int,
        nargs="+",
        default=[11000],
        help="classifier batches of 128 (default 11000); several numbers train one classifier for each, and the "
        "runtime averages their outputs (a number given again trains another classifier as long from another seed)",
    )
    parser.add_argument(
        "--cls-further",
        type=int,
        default=0,
        metavar="STEPS",
        help="classifier batches each classifier trains on after its --cls-steps, its batch norms folded and frozen, "
        "the learning rate peaking at a tenth, on crops also blurred as shaken or misfocused phone photos blur small "
        "tiles (default 0: none)",
    )
    parser.add_argument(
        "--cls-small",
        type=_share,
        default=0.0,
        metavar="SHARE",
        help="share of the crops of --cls-further also seen as tiles photographed small: shrunk to 10 to 30 pixels "
        "wide and enlarged back as the runtime enlarges them (default 0: none)",
    )
    parser.add_argument(
        "--cls-from",
        type=Path,
        default=None,
        metavar="MODEL_DIR",
        help="take the classifiers of the model in this folder (its ONNX files, for a model whose torch weights are "
        "gone) instead of training classifiers from scratch, and with --cls-further train on them (the model's "
        "version then counts its batches trained further and these); --cls-steps and --cls-width are then that "
        "model's",
    )
    parser.add_argument(
        "--det-width",
        type=int,
        default=DETECTOR_WIDTH,
        help=f"channels of the detector's first stage, the later ones 2, 3, 5 and 8 times as many (default "
        f"{DETECTOR_WIDTH}; 24 takes about twice the time a pass, 32 three times)",
    )
    parser.add_argument(
        "--cls-width",
        type=int,
        default=CLASSIFIER_WIDTH,
        help=f"channels of the classifier's first stage, the later ones 2, 4 and 6 times as many (default "
        f"{CLASSIFIER_WIDTH}; the time a crop takes grows with its square)",
    )
    parser.add_argument(
        "--dark-faces",
        type=_share,
        default=TRAIN_DARK_FACES,
        help=f"share of the riichi-style sets of the training scenes printed on dark faces (default "
        f"{TRAIN_DARK_FACES}; the renderer's own is {DARK_FACES})",
    )
    parser.add_argument(
        "--printed-faces",
        type=_share,
        default=TRAIN_PRINTED_FACES,
        help=f"share of the training scenes whose sets are printed from fonts (default {TRAIN_PRINTED_FACES})",
    )
    parser.add_argument(
        "--fonts",
        type=Path,
        default=DEFAULT_FONT_FOLDER,
        help=f"folder of the fonts the printed sets use (default {DEFAULT_FONT_FOLDER})",
    )
    parser.add_argument(
        "--phone-scenes",
        type=_share,
        default=TRAIN_PHONE_SCENES,
        help=f"share of the training scenes made as a player photographs a hand (default {TRAIN_PHONE_SCENES})",
    )
    parser.add_argument("--check-scenes", type=int, default=120, help="synthetic scenes for the final check")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument(
        "--device", default="cpu", help="where the networks train: cpu (default) or cuda (an NVIDIA GPU)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="processes that render the scenes and make the training batches ahead (default 0: all made in the "
        "training process); the scenes and batches are the same whatever the number",
    )
    parser.add_argument(
        "--precision",
        choices=("auto", "bf16", "fp32"),
        default="auto",
        help="arithmetic of the forward passes: bf16 (faster where the CPU has AVX-512 BF16 or AMX), "
        "fp32, or auto (default: bf16 where the CPU or GPU computes it in hardware)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "mjscan-train",
        help="folder for the trained weights of each stage (default: mjscan-train in the temp folder)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="take a stage's weights from --work when a run with the same settings left them there, and go on "
        "from the last snapshot of a stage it stopped in",
    )
    parser.add_argument(
        "--snapshot-every",
        type=int,
        default=SNAPSHOT_EVERY,
        help=f"save the state of the stage in training to --work every so many batches, for --resume to go on "
        f"from (default {SNAPSHOT_EVERY}; 0: never)",
    )
    parser.add_argument("--force", action="store_true", help="replace a model already in --out")
    return parser


def _bar(total: int, desc: str, done: int = 0) -> tqdm:
    """A progress bar of ``total`` training batches, starting at ``done`` (where the snapshot a stage goes on
    from stopped)."""
    return tqdm(total=total, initial=done, desc=desc, unit="step", dynamic_ncols=True, mininterval=2.0)


def _progress(bar: tqdm) -> Callable[[int, dict], None]:
    """A training loop's progress callback: ``bar`` at each step, the losses shown every 20 (reading them makes a
    GPU wait)."""

    def update(step: int, losses: dict) -> None:
        bar.update(step + 1 - bar.n)  # a run going on from a snapshot starts past 0
        if step % 20 == 0:
            bar.set_postfix({k: f"{v:.3f}" for k, v in losses.items()})

    return update


@contextmanager
def _model_of(parser: argparse.ArgumentParser, option: str, folder: Path) -> Iterator[dict]:
    """The ``model.json`` of the model in ``folder`` that ``option`` takes networks from; the command stops with
    a usage error where there is none, or where the body reading it finds a field missing or of the wrong kind."""
    try:
        yield json.loads((folder / MODEL_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        parser.error(f"{option} {folder}: no model this project trained there ({exc})")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.workers < 0:
        parser.error(f"--workers {args.workers}: give 0 or more processes")
    if args.det_further and min(args.det_further) < 1:
        parser.error(f"--det-further {' '.join(map(str, args.det_further))}: give 1 or more batches for each stage")
    args.det_taken = 0  # stages of --det-further trained in the model --det-from takes the detector of
    if args.det_from is not None:
        with _model_of(parser, "--det-from", args.det_from) as source:
            args.det_steps = int(source["training"]["detector_steps"])
            args.det_taken = len(source["training"]["detector_further_steps"])
            args.det_further = [*map(int, source["training"]["detector_further_steps"]), *args.det_further]
            args.det_width = int(source["training"]["detector_width"])
            args.det_file = args.det_from / source["detector"]["file"]
            args.det_source = str(source["version"])
            # the stages taken were trained as the model says, where the command is not told otherwise
            if args.det_spoil_from is None:
                args.det_spoil_from = source["training"].get("detector_spoilt_from")
            if args.det_ignore_from is None:
                args.det_ignore_from = source["training"].get("detector_ignored_from")
        if not args.det_file.is_file():
            parser.error(f"--det-from {args.det_from}: its model.json names a detector file it does not hold")
    for name, stage in (("--det-spoil-from", args.det_spoil_from), ("--det-ignore-from", args.det_ignore_from)):
        if stage is not None and not 0 <= stage <= len(args.det_further):
            parser.error(
                f"{name} {stage}: give a detector stage from 0 (the first) to {len(args.det_further)} (the last of "
                "--det-further)"
            )
    if not 0 < args.det_threshold < 1:
        parser.error(f"--det-threshold {args.det_threshold}: give a score between 0 and 1")
    if args.det_width < 4:
        parser.error(f"--det-width {args.det_width}: give 4 channels or more")
    if args.cls_width < 4:
        parser.error(f"--cls-width {args.cls_width}: give 4 channels or more")
    if args.snapshot_every < 0:
        parser.error(f"--snapshot-every {args.snapshot_every}: give 0 (never) or more batches")
    if min(args.cls_steps) < 1:
        parser.error(f"--cls-steps {' '.join(map(str, args.cls_steps))}: give 1 or more batches for each classifier")
    if args.cls_further < 0:
        parser.error(f"--cls-further {args.cls_further}: give 0 (none) or more batches")
    if args.cls_small and not args.cls_further:
        parser.error(f"--cls-small {args.cls_small}: the crops of --cls-further are shrunk; give --cls-further too")
    args.cls_further_done = args.cls_further  # the batches the classifiers are trained further, here or before
    if args.cls_from is not None:
        with _model_of(parser, "--cls-from", args.cls_from) as source:
            args.cls_steps = list(source["training"]["classifier_steps"])
            args.cls_width = int(source["training"]["classifier_width"])
            args.cls_files = [args.cls_from / name for name in classifier_files(source)]
            args.cls_source = str(source["version"])
            # the model's batches trained further, and those trained on here (none: the classifiers as they are)
            args.cls_further_done += int(source["training"].get("classifier_further_steps") or 0)
        if len(args.cls_files) != len(args.cls_steps) or not all(path.is_file() for path in args.cls_files):
            parser.error(f"--cls-from {args.cls_from}: its model.json names classifier files it does not hold")
    if (args.out / MODEL_JSON).exists() and not args.force:
        print(f"error: {args.out} already holds a model; pass --force to replace it", file=sys.stderr)
        return 2
    try:
        # the fonts first: a missing font stops the run before the photos are read
        printer = FacePrinter.from_folder(args.fonts) if args.printed_faces > 0 else None
        return _train(args, sys.argv[1:] if argv is None else argv, printer)
    except (DataError, FontError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _train(args: argparse.Namespace, argv: list[str], printer: FacePrinter | None) -> int:
    import torch

    from vision.training.classification import (
        FURTHER_BLUR,
        RECIPE_VERSION,
        RUNTIME_MARGIN,
        CropBank,
        bank_from_image,
        evaluate_bank,
        train_classifier,
    )
    from vision.training.classification import FURTHER_LR as CLS_FURTHER_LR
    from vision.training.data import load_art, load_crops, load_yolo_split
    from vision.training.detection import (
        DETECT_SIZE,
        FURTHER_LR,
        Picture,
        as_numpy_detector,
        detection_f1,
        encode,
        train_detector,
    )
    from vision.training.export import ExportError, classifier_from_onnx, detector_from_onnx, export_models
    from vision.training.loop import bf16_native, device_of, produce
    from vision.training.nets import fold_batch_norm
    from vision.training.synth import RENDERER_VERSION, FacePool, SceneRenderer

    try:
        device = device_of(args.device)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    option = "--cls-from"  # read first: a file that holds no network of its kind stops the run before any work
    try:
        sources = [classifier_from_onnx(path) for path in args.cls_files] if args.cls_from is not None else []
        option = "--det-from"
        taken = detector_from_onnx(args.det_file) if args.det_from is not None else None
    except ExportError as exc:
        print(f"error: {option}: {exc}", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    gpu = torch.cuda.get_device_name(device) if device.type == "cuda" else None
    native = torch.cuda.is_bf16_supported() if gpu else bf16_native()
    precision = ("bf16" if native else "fp32") if args.precision == "auto" else args.precision
    bf16 = precision == "bf16"
    print(f"training in {precision} on {gpu or f'{args.threads} threads'}, batches made by {args.workers} workers")
    started = time.time()
    streams = np.random.SeedSequence(args.seed).spawn(5)
    render_seed, det_seed, cls_seed, bank_rng, check_rng = (
        int(streams[0].generate_state(1)[0]),
        int(streams[1].generate_state(1)[0]),
        int(streams[2].generate_state(1)[0]),
        np.random.default_rng(streams[3]),
        np.random.default_rng(streams[4]),
    )
    data = args.data
    print(f"reading {data} (hk-photos/train, hk-crops, art)")
    photos = load_yolo_split(data / "hk-photos" / "train", data / "hk-photos" / "classes.json")
    crops = load_crops(data / "hk-crops")
    art = load_art(data)
    if printer is not None:
        print(f"printed sets: {len(printer.fonts)} fonts under {args.fonts}")
    pool = FacePool(
        art,
        crops,
        photos,
        seed=args.seed,
        dark_faces=args.dark_faces,
        printer=printer,
        printed_faces=args.printed_faces,
    )
    renderer, phone_renderer = SceneRenderer(pool), SceneRenderer(pool, phone=True)

    scenes_key = {
        "seed": args.seed,
        "scenes": args.scenes,
        "renderer": RENDERER_VERSION,
        "dark_faces": args.dark_faces,
        "printed_faces": args.printed_faces,
        "fonts": sorted(path.name for path in printer.fonts) if printer is not None else [],
        "phone_scenes": args.phone_scenes,
        "seeding": "per item",  # each scene and each batch from its own random numbers (``loop.produce``)
    }
    # the saved scenes also hold the boxes of the faces each shows but does not label; the stages' keys stay
    # those of the scenes, whose pictures and boxes are the same with them or without
    cache_key = {**scenes_key, "unlabelled": True}

    def render(index: int) -> tuple:
        rng = np.random.default_rng([render_seed, index])
        scene = (phone_renderer if rng.random() < args.phone_scenes else renderer).render(rng)
        return encode(scene.image), scene.boxes, scene.class_ids, scene.orientation, scene.unlabelled_boxes

    # networks taken and not trained on are copied as they are at the export: the training scenes are rendered
    # only where a network trains, and the crops the classifiers train on cut only where any classifier trains
    kept = args.cls_from if args.cls_from is not None and not args.cls_further else None
    det_kept = args.det_from if args.det_from is not None and args.det_taken == len(args.det_further) else None
    scenes = [] if kept is not None and det_kept is not None else _load_scenes(args, cache_key)
    if scenes is None:
        made = produce(render, args.scenes, args.workers)
        scenes = list(
            tqdm(made, total=args.scenes, desc="render scenes", unit="scene", dynamic_ncols=True, mininterval=2.0)
        )
        _save_scenes(args, cache_key, scenes)
    synthetic = [Picture(jpeg, boxes, unlabelled) for jpeg, boxes, _, _, unlabelled in scenes]
    real = [Picture(p.path.read_bytes(), p.boxes) for p in photos]

    options = {"bf16": bf16, "device": str(device), "workers": args.workers}
    first_stage = _stage_settings(args, 0)
    det_key = {
        **scenes_key,
        "steps": args.det_steps,
        "precision": precision,
        "width": args.det_width,
        **first_stage,
    }
    if taken is not None:  # its stages stand for the first ones
        det_key = {**scenes_key, "from": args.det_source, "file": args.det_file.name, "width": args.det_width}
        print(f"detector: taken from {args.det_file} (model {args.det_source}) for its {args.det_taken + 1} stages")
    detector = taken if taken is not None else _load_stage(args, "detector", det_key)
    if detector is None:
        snapshots, done = _snapshots(args, "detector", det_key)
        bar = _bar(args.det_steps, "train detector", done)
        detector = train_detector(
            real,
            synthetic,
            args.det_steps,
            det_seed,
            progress=_progress(bar),
            width=args.det_width,
            snapshots=snapshots,
            spoilt="spoilt_from" in first_stage,
            ignore="ignored_from" in first_stage,
            **options,
        )
        bar.close()
        _save_stage(args, "detector", det_key, detector, snapshots)
    for number, steps in enumerate(args.det_further[args.det_taken :], args.det_taken + 1):
        further_stage = _stage_settings(args, number)
        further_key = {**det_key, "further": args.det_further[:number], "lr": FURTHER_LR, **further_stage}
        further = _load_stage(args, f"detector-further-{number}", further_key)
        if further is None:
            further_seed = int(np.random.SeedSequence([det_seed, number]).generate_state(1)[0])
            # the stage before is saved and read no more: it is folded (once) and trained on in place
            snapshots, done = _snapshots(args, f"detector-further-{number}", further_key)
            bar = _bar(steps, f"train detector further {number}/{len(args.det_further)}", done)
            further = train_detector(
                real,
                synthetic,
                steps,
                further_seed,
                progress=_progress(bar),
                start=fold_batch_norm(detector),
                snapshots=snapshots,
                spoilt="spoilt_from" in further_stage,
                ignore="ignored_from" in further_stage,
                **options,
            )
            bar.close()
            _save_stage(args, f"detector-further-{number}", further_key, further, snapshots)
        detector = further

    bank = _crop_bank(scenes, photos, crops, bank_rng) if kept is None else None
    shares = {0: 0.42, 1: 0.45, 2: 0.08, 3: 0.05}
    classifiers, stages = [], []
    for number, (stage, steps, seed, draw) in enumerate(classifier_runs(args.cls_steps, cls_seed), 1):
        if args.cls_from is not None:  # the classifiers of a model, as its ONNX files hold them
            path = args.cls_files[number - 1]
            classifiers.append(sources[number - 1])
            print(f"classifier {number}: taken from {path} (model {args.cls_source})")
            # the key holds the width, which a resumed run builds the network with (``_load_stage``)
            stages.append(
                (stage, seed, {**scenes_key, "from": args.cls_source, "file": path.name, "width": args.cls_width})
            )
            continue
        cls_key = {
            **scenes_key,
            "steps": steps,
            "draw": draw,
            "precision": precision,
            "recipe": RECIPE_VERSION,
            "width": args.cls_width,
        }
        classifier = _load_stage(args, stage, cls_key)
        if classifier is None:
            snapshots, done = _snapshots(args, stage, cls_key)
            bar = _bar(steps, f"train classifier {number}/{len(args.cls_steps)}", done)
            classifier = train_classifier(
                bank,
                shares,
                steps,
                seed,
                progress=_progress(bar),
                width=args.cls_width,
                snapshots=snapshots,
                **options,
            )
            bar.close()
            _save_stage(args, stage, cls_key, classifier, snapshots)
        classifiers.append(classifier)
        stages.append((stage, seed, cls_key))
    for number, (stage, seed, key) in enumerate(stages if args.cls_further else []):
        further_key = {**key, "further": args.cls_further, "lr": CLS_FURTHER_LR, "blur": FURTHER_BLUR}
        if args.cls_small:  # the keys of runs without it stay as they were
            further_key["small"] = args.cls_small
        further = _load_stage(args, f"{stage}-further", further_key)
        if further is None:
            # the stage before is folded (once) and trained on in place, as the detector's are
            snapshots, done = _snapshots(args, f"{stage}-further", further_key)
            bar = _bar(args.cls_further, f"train classifier further {number + 1}/{len(stages)}", done)
            further = train_classifier(
                bank,
                shares,
                args.cls_further,
                int(np.random.SeedSequence([seed, 1]).generate_state(1)[0]),
                progress=_progress(bar),
                snapshots=snapshots,
                start=fold_batch_norm(classifiers[number]),
                blurred=True,
                small=args.cls_small,
                **options,
            )
            bar.close()
            _save_stage(args, f"{stage}-further", further_key, further, snapshots)
        classifiers[number] = further

    print("checking on synthetic scenes rendered apart from the training scenes")
    check_pictures, check_banks = [], []
    for _ in range(args.check_scenes):
        scene = renderer.render(check_rng)
        check_pictures.append(Picture(encode(scene.image), scene.boxes))
        check_banks.append(bank_from_image(scene.image, scene.boxes, scene.class_ids, scene.orientation, 1))
    figures = {
        "synthetic_detection": detection_f1(as_numpy_detector(detector), check_pictures),
        "synthetic_classification": evaluate_bank(classifiers, CropBank.concat(check_banks)),
    }
    training = {
        # date, seed, classifier recipe, dark-face and printed-set shares (percent), scenes, detector steps (those
        # trained further after a +) x classifier steps (those of each classifier joined by +; f and the batches
        # each trained on further, where they were), classifier width, the detector's width where it is not the
        # default, its first stage spoilt (-sp) where any is, and its first stage that ignores the tiles a window
        # shows unlabelled (-ig) where any does, and the share of crops trained on further as small tiles (-sm)
        "version": time.strftime("%Y%m%d")
        + f"-s{args.seed}-c{RECIPE_VERSION}-d{round(args.dark_faces * 100)}-p{round(args.printed_faces * 100)}"
        + f"-n{args.scenes}-{args.det_steps}{''.join(f'+{steps}' for steps in args.det_further)}"
        + f"x{'+'.join(map(str, args.cls_steps))}{f'f{args.cls_further_done}' if args.cls_further_done else ''}"
        + f"-w{args.cls_width}"
        + (f"-dw{args.det_width}" if args.det_width != DETECTOR_WIDTH else "")
        + (f"-sp{args.det_spoil_from}" if args.det_spoil_from is not None else "")
        + (f"-ig{args.det_ignore_from}" if args.det_ignore_from is not None else "")
        + (f"-sm{round(args.cls_small * 100)}" if args.cls_small else ""),
        "command": " ".join(["python -m vision.training", *argv]),
        "seed": args.seed,
        "scenes": args.scenes,
        "dark_faces": args.dark_faces,
        "printed_faces": args.printed_faces,
        "fonts": scenes_key["fonts"],
        "phone_scenes": args.phone_scenes,
        "detector_steps": args.det_steps,
        "detector_further_steps": args.det_further,
        "detector_spoilt_from": args.det_spoil_from,
        "detector_ignored_from": args.det_ignore_from,
        "detector_from": args.det_source if args.det_from is not None else None,
        "detector_width": args.det_width,
        "classifier_steps": args.cls_steps,
        "classifier_further_steps": args.cls_further_done,
        "classifiers_from": args.cls_source if args.cls_from is not None else None,
        "classifier_small": args.cls_small,
        "classifier_width": args.cls_width,
        "real_photos": len(photos),
        "real_tiles": int(sum(len(p.boxes) for p in photos)),
        "crops_bank": len(bank) if bank is not None else None,
        "minutes": round((time.time() - started) / 60, 1),
        "torch": torch.__version__,
        "machine": f"{platform.machine()}, {args.threads} threads" + (f", {gpu}" if gpu else ""),
        "workers": args.workers,
        "precision": precision,
        "checks": figures,
    }
    settings = {
        # flips: the input is read also mirrored and the outputs averaged (the detector trains on windows turned
        # and mirrored every way). Model 20261204-s1-c2-d30-p30 on synthetic phone photos (seed 777), threshold
        # 0.3 and floor 0.3: F1 0.937 read once, 0.940 also mirrored left-right, 0.942 also upside down
        # (12-megapixel median 68 -> 81 -> 93 ms); a fourth reading turned half round 0.945 for 15 ms more.
        # threshold (detection score; --det-threshold) and min_score (the floor: tiles scoring lower, detection
        # score times class probability, are left out; mostly fragments and misplaced boxes), chosen on that set
        # for each bundled model (MODEL_CARD.md). Model 20261205-s1-c2-d30-p30-n8000-20000x30000-w32: thresholds
        # 0.4 / 0.45 / 0.5 with floor 0.25 give F1 0.9697 / 0.9719 / 0.9704; with threshold 0.45, floors 0.2 /
        # 0.25 / 0.3 give 0.9712 / 0.9719 / 0.9717
        "detector": {
            "threshold": args.det_threshold,
            "nms_iou": 0.6,
            "max_tiles": 300,
            "flips": ["horizontal", "vertical"],
        },
        "classifier": {"margin": RUNTIME_MARGIN, "reject": 0.5, "min_score": 0.25, "batch": 32},
    }
    samples = [Picture(p.path.read_bytes(), p.boxes).decode() for p in photos[:3]]
    crops_int8 = _int8_crops(real)
    try:
        meta = export_models(
            detector,
            classifiers,
            args.out,
            DETECT_SIZE,
            settings,
            samples,
            training,
            crops_int8,
            kept_from=kept,
            detector_from=det_kept,
        )
    except ExportError as exc:
        print(f"error: {exc}; {args.out} is left as it was, the trained networks are in {args.work}", file=sys.stderr)
        return 1
    print(json.dumps({"out": str(args.out), "export": meta["export"], **figures}, indent=1))
    return 0


def stage_key(name: str, first: int | None, stage: int) -> dict[str, int]:
    """What the key of detector stage ``stage`` (0 the first, 1 and on those trained further) holds of an option
    naming the ``first`` stage trained some way (``--det-spoil-from``: ``spoilt_from``; ``--det-ignore-from``:
    ``ignored_from``): that first stage under ``name`` where this one is trained that way too (so the key tells
    which stages before it were), nothing where it is not (so that the keys of runs without it stay as they
    were)."""
    return {name: first} if first is not None and stage >= first else {}


def classifier_runs(cls_steps: list[int], seed: int) -> list[tuple[str, int, int, int]]:
    """The classifiers ``--cls-steps`` asks for: each one's stage name in the work folder, batches, seed and draw.

    The first classifier of each length trains from ``seed`` (the training command's classifier stream), so a
    model adding classifiers keeps its first one; a length given again (its draw 1, 2, ...) trains from a seed
    of its own, other initial weights and batches. Each is a stage of its own (``classifier-STEPS``, then
    ``classifier-STEPS-2`` and on): a run adding a classifier resumes the others from ``--work``.
    """
    runs = []
    for number, steps in enumerate(cls_steps):
        draw = cls_steps[:number].count(steps)
        own = seed if draw == 0 else int(np.random.SeedSequence([seed, draw]).generate_state(1)[0])
        runs.append((f"classifier-{steps}" + (f"-{draw + 1}" if draw else ""), steps, own, draw))
    return runs


def _stage_settings(args: argparse.Namespace, stage: int) -> dict[str, int]:
    """How detector stage ``stage`` trains, as its key holds it: ``stage_key`` of ``--det-spoil-from``
    (``spoilt_from``: its windows spoilt) and of ``--det-ignore-from`` (``ignored_from``: the tiles shown
    unlabelled learnt neither way)."""
    return {
        **stage_key("spoilt_from", args.det_spoil_from, stage),
        **stage_key("ignored_from", args.det_ignore_from, stage),
    }


def _crop_bank(scenes: list, photos: list, crops: list, rng: np.random.Generator) -> CropBank:
    """The tile crops the classifiers train on: cut from the synthetic ``scenes`` (JPEG, boxes, classes,
    orientation, unlabelled boxes; drawing on ``rng``), the real ``photos`` and the single-tile ``crops``."""
    from vision.training.classification import CropBank, bank_from_image
    from vision.training.detection import Picture

    banks: list[CropBank] = []
    for jpeg, boxes, class_ids, orientation, _ in tqdm(
        scenes, desc="cut synthetic crops", unit="scene", dynamic_ncols=True, mininterval=2.0
    ):
        image = Picture(jpeg, boxes).decode()
        banks.append(bank_from_image(image, boxes, class_ids, orientation, 1, rng, 3, negative_source=2))
    for item in tqdm(photos, desc="cut real crops", unit="photo", dynamic_ncols=True, mininterval=2.0):
        if len(item.boxes):
            image = Picture(item.path.read_bytes(), item.boxes).decode()
            unknown = np.full(len(item.boxes), -1)
            banks.append(bank_from_image(image, item.boxes, item.class_ids, unknown, 0))
    for image, cls in crops:
        h, w = image.shape[:2]
        box = np.array([[0, 0, w, h]], np.float32)
        # turned either way up in the photos: no turn to learn from them (``synth.FacePool``)
        banks.append(bank_from_image(image, box, np.array([cls]), np.array([-1]), 3))
    return CropBank.concat(banks)


def _int8_crops(real: list, photos: int = 120, per_photo: int = 8) -> np.ndarray:
    """Tile crops cut as the runtime cuts them from ``photos`` real photos spread over the set, up to
    ``per_photo`` each, in photo order: the first half calibrates the 8-bit classifier, the rest checks it."""
    from vision.detector import crop_tiles
    from vision.training.nets import CROP

    picked = real[:: max(1, len(real) // photos)][:photos]
    crops = [crop_tiles(p.decode(), p.boxes[:per_photo], CROP) for p in picked if len(p.boxes)]
    return np.concatenate(crops) if crops else np.zeros((0, 3, CROP, CROP), np.float32)


def _save_scenes(args: argparse.Namespace, key: dict, scenes: list) -> None:
    args.work.mkdir(parents=True, exist_ok=True)
    with (args.work / "scenes.pkl").open("wb") as handle:
        pickle.dump(scenes, handle, protocol=pickle.HIGHEST_PROTOCOL)
    (args.work / "scenes.json").write_text(json.dumps(key))


def _load_scenes(args: argparse.Namespace, key: dict) -> list | None:
    """The synthetic scenes (JPEG, boxes, classes, orientation) a previous run with the same settings rendered."""
    data, saved = args.work / "scenes.pkl", args.work / "scenes.json"
    if not (args.resume and data.is_file() and saved.is_file()) or json.loads(saved.read_text()) != key:
        return None
    with data.open("rb") as handle:
        scenes = pickle.load(handle)
    print(f"scenes: {len(scenes)} rendered by an earlier run taken from {data}")
    return scenes


def _snapshots(args: argparse.Namespace, stage: str, key: dict) -> tuple[Snapshots | None, int]:
    """Where ``stage`` saves its state as it trains (``loop.Snapshots``; None with ``--snapshot-every 0``), and
    the batches done by the snapshot of an earlier run it goes on from (0 where none), saying so."""
    from vision.training.loop import Snapshots

    if args.snapshot_every == 0:
        return None, 0
    snapshots = Snapshots(args.work / f"{stage}.snapshot.pt", key, args.snapshot_every, resume=args.resume)
    done = snapshots.found()
    if done:
        print(f"{stage}: going on from batch {done}, saved by an earlier run in {snapshots.path}")
    return snapshots, done


def _save_stage(args: argparse.Namespace, stage: str, key: dict, net, snapshots: Snapshots | None = None) -> None:
    """Save a stage's finished weights with its settings, and delete its ``snapshots`` (no longer needed)."""
    import torch

    args.work.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), args.work / f"{stage}.pt")
    (args.work / f"{stage}.json").write_text(json.dumps(key))
    if snapshots is not None:
        snapshots.remove()


def _load_stage(args: argparse.Namespace, stage: str, key: dict):
    """The weights a previous run with the same settings (``key``; it holds the network's width) saved for
    ``stage``, when ``--resume`` asks for them."""
    import torch

    from vision.training.classification import NUM_OUTPUTS
    from vision.training.nets import TileClassifier, TileDetector

    weights, saved = args.work / f"{stage}.pt", args.work / f"{stage}.json"
    if not (args.resume and weights.is_file() and saved.is_file()) or json.loads(saved.read_text()) != key:
        return None
    width = key["width"]
    net = TileDetector(width) if stage.startswith("detector") else TileClassifier(NUM_OUTPUTS, width)
    net.load_state_dict(torch.load(weights))
    print(f"{stage}: weights of an earlier run taken from {weights}")
    return net.eval()


if __name__ == "__main__":
    sys.exit(main())
