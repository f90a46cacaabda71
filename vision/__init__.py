"""mjscan's vision: photos in, tiles and the hand they make out. Knows pixels and tiles, never rules.

    import vision
    rec = vision.recognize("IMG_0412.jpg")      # a path, bytes, a binary file or an RGB array
    rec.to_json()                               # the recognition JSON of contracts.md
    jpeg = vision.annotate_jpeg(vision.load_image("IMG_0412.jpg"), rec)

``vision.io`` reads photos, ``vision.layout`` turns tiles into a hand, ``vision.annotate`` draws,
``vision.evaluate`` measures a detector against labelled photos, ``vision.detector`` runs the ONNX model.
"""

from vision.annotate import annotate_image, annotate_jpeg
from vision.io import DecodedImage, ImageError, decode_image, load_image
from vision.layout import Layout, read_layout
from vision.recognize import Recognition, Tile, default_model, from_detections, recognize
from vision.types import CLASSES, Detections

__all__ = [
    "CLASSES",
    "DecodedImage",
    "Detections",
    "ImageError",
    "Layout",
    "Recognition",
    "Tile",
    "annotate_image",
    "annotate_jpeg",
    "decode_image",
    "default_model",
    "from_detections",
    "load_image",
    "read_layout",
    "recognize",
]
