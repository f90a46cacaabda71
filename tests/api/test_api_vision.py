"""POST /v1/recognize and /v1/analyze: on a real photo with the real tile model (skipped without them), and
on a drawn photo read by a stand-in for the model (everywhere)."""

from __future__ import annotations

import base64
import io

import pytest
from api_samples import KnownTilesModel, drawn_hand, library_result
from fastapi.testclient import TestClient
from PIL import Image

import scoring
from api import analysis
from api.app import create_app


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
    assert body["tiles"] == direct.to_json()["tiles"]  # alternatives included
    assert body["hand"] == direct.to_json()["hand"]
    assert body["hand_tiles"] == direct.to_json()["hand_tiles"]


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
    assert body["score"] == library_result({**body["recognition"]["hand"], "self_drawn": True}, rules)
    assert max(decode_data_url(body["annotated_image"]).size) <= 1600


# The same endpoints where models/ has no model: a drawn photo and the stand-in that reads it, so that
# decoding, layout, scoring, annotation and the JSON are checked on every machine.
HAND = "2m 3m 4m 4p 5p 6p 6s 7s 8s 2p 3p 5s 5s 4p".split()


@pytest.fixture()
def drawn():
    data, model = drawn_hand(HAND)
    with TestClient(create_app(model=model)) as c:
        yield c, data


def test_recognize_a_drawn_hand(drawn):
    client, data = drawn
    r = client.post("/v1/recognize?annotate=true", files={"image": ("table.jpg", data, "image/jpeg")})
    assert r.status_code == 200
    body = r.json()
    assert body["image"] == "table.jpg"
    assert [t["code"] for t in body["tiles"]] == HAND
    assert body["hand"]["concealed"] == HAND[:-1] and body["hand"]["win_tile"] == HAND[-1]
    assert set(body["timings_ms"]) == {"decode", "detect", "classify", "total"}
    assert max(decode_data_url(body["annotated_image"]).size) <= 1600


def test_analyze_a_drawn_hand_is_the_library_score(drawn):
    client, data = drawn
    rules = next(n for n, rs in scoring.rulesets().items() if rs.hand_size == 13)
    r = client.post(
        "/v1/analyze",
        files={"image": ("table.jpg", data, "image/jpeg")},
        data={"rules": rules, "situation": '{"self_drawn": true}'},
    )
    assert r.status_code == 200
    body = r.json()
    assert body["score"] == library_result({"concealed": HAND[:-1], "win_tile": HAND[-1], "self_drawn": True}, rules)
    assert max(decode_data_url(body["annotated_image"]).size) <= 1600


def test_analyze_an_incomplete_hand_gives_the_refusal_beside_the_recognition():
    data, model = drawn_hand(HAND[1:])
    with TestClient(create_app(model=model)) as client:
        r = client.post("/v1/analyze", files={"image": ("t.jpg", data, "image/jpeg")}, data={"rules": "riichi"})
    assert r.status_code == 200
    body = r.json()
    assert body["score"]["ok"] is False and body["score"]["error"]["code"] == "wrong_tile_count"
    assert len(body["recognition"]["tiles"]) == 13
    assert body["annotated_image"].startswith("data:image/jpeg;base64,")


def test_analyze_reads_the_photo_as_a_hand_of_the_rule_sets_size(drawn):
    """The layout is read knowing the table's hand size: 14 tiles are a complete hand to riichi, one that lacks
    3 to Taiwanese 16-tile rules; /v1/recognize, which knows no rules, allows either."""
    client, data = drawn
    warnings = {}
    for rules in ("riichi", "taiwan16"):
        r = client.post("/v1/analyze", files={"image": ("t.jpg", data, "image/jpeg")}, data={"rules": rules})
        warnings[rules] = [w for w in r.json()["recognition"]["warnings"] if w.startswith("found")]
    assert warnings == {"riichi": [], "taiwan16": ["found 14 tiles; a complete hand has 17"]}
    r = client.post("/v1/recognize", files={"image": ("t.jpg", data, "image/jpeg")})
    assert not any(w.startswith("found") for w in r.json()["warnings"])
    r = client.post("/v1/recognize", files={"image": ("t.jpg", data, "image/jpeg")}, data={"rules": "taiwan16"})
    assert "found 14 tiles; a complete hand has 17" in r.json()["warnings"]


def test_healthz_names_the_model_it_was_given(drawn):
    client, _ = drawn
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["model"]["loaded"] is True
    assert body["model"]["name"] == KnownTilesModel.info["name"]
