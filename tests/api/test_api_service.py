"""GET /healthz, GET /v1/rules, GET / and the OpenAPI description."""

from __future__ import annotations

import json
import re

from api.cli import main as mjscan
from scoring import rulesets
from vision.recognize import reader_digest
from vision.types import CLASSES

API_PATHS = {
    ("get", "/healthz"),
    ("get", "/v1/rules"),
    ("post", "/v1/recognize"),
    ("post", "/v1/score"),
    ("post", "/v1/analyze"),
    ("get", "/"),
}


def test_healthz_says_ok_or_no_model_and_lists_rules(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "no_model"
    assert body["model"]["loaded"] is False and body["model"]["error"]
    assert body["rules"] == sorted(rulesets())
    assert body["recognitions_running"] == 0
    assert body["limits"]["max_upload_bytes"] == 20 * 2**20


def test_healthz_reports_the_loaded_model(model_client, tile_model):
    body = model_client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["model"]["loaded"] is True
    assert body["model"]["name"] == tile_model.info["name"]
    assert body["model"]["reader"] == reader_digest()


def test_rules_are_those_of_mjscan_rules_json(client, capsys):
    served = client.get("/v1/rules").json()
    assert mjscan(["rules", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert served == printed
    names = [e["name"] for e in served if e["scorable"]]
    assert names == list(rulesets())


def test_every_situation_field_has_a_kind_a_page_can_draw(client):
    kinds = {"bool", "int", "wind", "seat", "suit", "tile", "tiles", "ints", "any"}
    for entry in client.get("/v1/rules").json():
        assert [f["name"] for f in entry["fields"]] == entry["situation"]
        for field in entry["fields"]:
            assert field["type"] in kinds
            if field["type"] == "wind":
                assert field["choices"] == ["E", "S", "W", "N"]


def test_field_kinds_follow_the_hand_json():
    from scoring.fields import HAND_FIELDS

    def info(name):
        return HAND_FIELDS[name].describe()

    assert info("self_drawn") == {
        "name": "self_drawn",
        "type": "bool",
        "default": False,
        "help": "won on a self-drawn tile",
    }
    assert info("dora_indicators")["type"] == "tiles"
    assert info("wild_indicator")["type"] == "tile"
    assert info("void_suit")["type"] == "suit" and info("void_suit")["choices"] == ["m", "p", "s"]
    assert info("seat_index")["choices"] == [0, 1, 2, 3]
    assert info("honba")["type"] == "int" and info("honba")["default"] == 0


def test_own_fields_of_a_rule_set_have_kinds_too(client):
    changsha = next(e for e in client.get("/v1/rules").json() if e["name"] == "changsha")
    fields = {f["name"]: f for f in changsha["fields"]}
    assert fields["discarder"]["type"] == "seat" and fields["discarder"]["choices"] == ["left", "across", "right"]
    assert fields["birds"]["type"] == "tiles"


def test_page_has_the_camera_input_and_its_files_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    assert '<input id="photo" type="file" accept="image/*" capture="environment">' in html
    assert 'name="viewport"' in html
    for path in ("/static/app.js", "/static/app.css", "/static/manifest.json", "/static/tiles/LICENSE.md"):
        assert client.get(path).status_code == 200, path


def test_every_code_the_recogniser_gives_has_a_tile_picture(client):
    for code in (*CLASSES, "front"):
        r = client.get(f"/static/tiles/{code}.svg")
        assert r.status_code == 200, code
        assert r.text.startswith("<svg"), code


def test_the_page_marks_unsure_the_tiles_the_annotated_photo_and_the_warnings_mark(client):
    from vision.annotate import LOW_SCORE

    found = re.search(r"^const UNSURE_BELOW = ([0-9.]+);$", client.get("/static/app.js").text, re.M)
    assert found and float(found.group(1)) == LOW_SCORE


def test_service_worker_is_served_from_the_root_with_a_content_version(client):
    from api.routers.page import static_version

    r = client.get("/sw.js")
    assert r.status_code == 200
    assert "javascript" in r.headers["content-type"]
    assert f'"mjscan-{static_version()}"' in r.text
    assert "__VERSION__" not in r.text
    for path in ("/static/app.js", "/static/app.css", "/static/icon.svg", "/static/manifest.json"):
        assert f'"{path}"' in r.text, f"{path} is not cached for offline use"


def test_openapi_describes_every_endpoint_with_examples(client):
    spec = client.get("/openapi.json").json()
    found = {(m, p) for p, ops in spec["paths"].items() for m in ops}
    assert API_PATHS <= found
    schemas = spec["components"]["schemas"]
    for name in ("ScoreRequest", "ScoreResponse", "RecognitionResponse", "AnalyzeResponse", "Health", "ErrorResponse"):
        assert schemas[name].get("examples"), name
    score = spec["paths"]["/v1/score"]["post"]
    assert score["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/ScoreRequest")
    assert {"200", "400", "413", "422"} <= set(score["responses"])
    for path in ("/v1/recognize", "/v1/analyze"):
        op = spec["paths"][path]["post"]
        assert "multipart/form-data" in op["requestBody"]["content"]
        assert {"200", "400", "413", "415", "503"} <= set(op["responses"])
    error_ref = score["responses"]["422"]["content"]["application/json"]["schema"]["$ref"]
    assert error_ref.endswith("/ErrorResponse")


def test_unknown_path_is_a_json_404(client):
    r = client.get("/v2/nothing")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
