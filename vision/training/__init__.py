"""Training of the tile model: synthetic scenes, the networks, the training loops and ONNX export.

This package imports torch (the ``train`` extra); the runtime (``vision.detector``) never imports it.
``python -m vision.training --data DATA_DIR --out models/`` trains the detector and the classifiers from
scratch and writes the ONNX files with their metadata; ``python -m vision.training.render`` writes a synthetic test set.
"""

#: Channels of the classifier's first stage by default (``nets.TileClassifier``; its later stages have 2, 4 and 6
#: times as many). Here rather than in ``nets`` so that the command line reads it without importing torch.
CLASSIFIER_WIDTH = 32
#: Channels of the detector's first stage by default (``nets.TileDetector``; its later stages have 2, 3, 5 and 8
#: times as many, its feature pyramid 3 times).
DETECTOR_WIDTH = 16
#: Batches between two snapshots of the stage in training (``loop.Snapshots``, ``--snapshot-every``): three to five
#: minutes of the detector on 2 cores, a few seconds to write.
SNAPSHOT_EVERY = 500
