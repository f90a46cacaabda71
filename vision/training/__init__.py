"""Training of the tile model: synthetic scenes, the two networks, the training loops and ONNX export.

This package imports torch (the ``train`` extra); the runtime (``vision.detector``) never imports it.
``python -m vision.training --data DATA_DIR --out models/`` trains both networks from scratch and writes the
ONNX files with their metadata; ``python -m vision.training.render`` writes a synthetic test set.
"""
