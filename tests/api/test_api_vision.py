"""POST /v1/recognize and /v1/analyze on a real photo with the real tile model (skipped without them)."""

from __future__ import annotations

import base64
import io

from PIL import Image

import scoring
from api import analysis


def decode_data_url(url: str) -> Image.Image:
    head, _, data = url.partition(",")
    assert head == "data:image/jpeg;base64"
    return Image.open(io.BytesIO(base64.b64decode(data)))


def test_recognize_gives_the_recognition_json_of_the_library(model_client, tile_model, photo):
    data = photo.read_bytes()
    r = model_client.post("/v1/recognize", files={"image": (photo.name, data, "image/jpeg")})
    assert r.status_code == 200
    body = r.json()
    assert {"image", "width", "height", "tiles", "hand", "warnings", "timings_ms"} <= set(body)
    assert body["image"] == photo.name
    assert "annotated_image" not in body
    direct, _ = analysis.recognize(data, tile_model, name=photo.name)
    assert [t["code"] for t in body["tiles"]] == [t["code"] for t in direct.to_json()["tiles"]]
    assert body["hand"] == direct.to_json()["hand"]


def test_recognize_annotates_on_request_at_most_1600_px(model_client, photo):
    r = model_client.post(
        "/v1/recognize?annotate=true", files={"image": (photo.name, photo.read_bytes(), "image/jpeg")}
    )
    assert r.status_code == 200
    image = decode_data_url(r.json()["annotated_image"])
    assert image.format == "JPEG" and max(image.size) <= 1600


def test_analyze_scores_the_recognised_hand_with_the_situation(model_client, photo):
    rules = next(iter(scoring.rulesets()))
    r = model_client.post(
        "/v1/analyze",
        files={"image": (photo.name, photo.read_bytes(), "image/jpeg")},
        data={"rules": rules, "situation": '{"self_drawn": true}'},
    )
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"recognition", "score", "annotated_image"}
    hand = {**body["recognition"]["hand"], "self_drawn": True}
    try:
        expected = scoring.score(hand, rules=rules).to_json()
    except scoring.ScoringError as exc:
        expected = exc.to_json()
    assert body["score"] == expected
    assert max(decode_data_url(body["annotated_image"]).size) <= 1600
