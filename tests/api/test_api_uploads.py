"""POST /v1/recognize and /v1/analyze with bad uploads: each gets the contract's status and JSON error,
checked before any model is needed (these run without one), and the worker lives on to answer the next."""

from __future__ import annotations

import io

import pytest
from api_samples import jpeg_bytes, png_bomb
from fastapi.testclient import TestClient
from PIL import Image

from api.app import create_app
from api.routers.deps import Settings

ENDPOINTS = ["/v1/recognize", "/v1/analyze"]


def post(client: TestClient, path: str, data: bytes, name: str = "IMG_0412.jpg", mime: str = "image/jpeg", **form):
    fields = {"rules": "riichi", **form} if path == "/v1/analyze" else {}
    return client.post(path, files={"image": (name, data, mime)}, data=fields)


def assert_error(r, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert body["error"]["message"]
    assert "Traceback" not in r.text


@pytest.mark.parametrize("path", ENDPOINTS)
def test_empty_upload_is_400(client, path):
    assert_error(post(client, path, b""), 400, "empty")


@pytest.mark.parametrize("path", ENDPOINTS)
def test_truncated_jpeg_is_400(client, path):
    data = jpeg_bytes()
    assert_error(post(client, path, data[: len(data) // 2]), 400, "truncated")


@pytest.mark.parametrize("path", ENDPOINTS)
def test_text_with_an_image_name_is_415(client, path):
    assert_error(post(client, path, b"%PDF-1.4 not a photo at all\n" * 50), 415, "not_an_image")


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
@pytest.mark.parametrize("path", ENDPOINTS)
def test_decompression_bomb_is_413(client, path):
    bomb = png_bomb(12_000, 12_000)  # 144 megapixels in a few kilobytes
    assert len(bomb) < 100_000
    assert_error(post(client, path, bomb, name="bomb.png", mime="image/png"), 413, "too_many_pixels")


@pytest.mark.parametrize("path", ENDPOINTS)
def test_a_picture_too_small_for_tiles_is_400(client, path):
    assert_error(post(client, path, jpeg_bytes(24, 24)), 400, "too_small")


def test_pixel_limit_is_an_option():
    small = jpeg_bytes(800, 600)
    with TestClient(create_app(Settings(max_pixels=400_000), model=None)) as c:
        assert_error(post(c, "/v1/recognize", small), 413, "too_many_pixels")
    with TestClient(create_app(Settings(max_pixels=500_000), model=None)) as c:
        assert_error(post(c, "/v1/recognize", small), 503, "model_unavailable")


@pytest.mark.parametrize("path", ENDPOINTS)
def test_upload_over_the_size_limit_is_413(path):
    with TestClient(create_app(Settings(max_upload_bytes=2**20), model=None)) as c:
        r = post(c, path, b"\xff\xd8" + bytes(3 * 2**20))
        assert_error(r, 413, "too_large")
        assert "1 MB" in r.json()["error"]["message"]
        assert c.get("/healthz").status_code == 200


def test_upload_without_content_length_is_cut_off_at_the_limit():
    boundary = "mjscanboundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()

    def chunks():
        yield head
        for _ in range(40):
            yield bytes(2**17)
        yield f"\r\n--{boundary}--\r\n".encode()

    with TestClient(create_app(Settings(max_upload_bytes=2**20), model=None)) as c:
        r = c.post(
            "/v1/recognize", content=chunks(), headers={"content-type": f"multipart/form-data; boundary={boundary}"}
        )
        assert_error(r, 413, "too_large")


@pytest.mark.parametrize("path", ENDPOINTS)
def test_missing_image_field_is_400(client, path):
    r = client.post(path, data={"rules": "riichi"})
    assert_error(r, 400, "bad_request")
    assert "image" in r.json()["error"]["message"]


@pytest.mark.parametrize("path", ENDPOINTS)
def test_a_good_photo_without_a_model_is_503(client, path):
    assert_error(post(client, path, jpeg_bytes()), 503, "model_unavailable")


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_other_formats_are_read(client, fmt):
    out = io.BytesIO()
    Image.new("RGB", (320, 240), "white").save(out, fmt)
    assert_error(post(client, "/v1/recognize", out.getvalue(), name=f"x.{fmt.lower()}"), 503, "model_unavailable")


def test_analyze_checks_rules_before_the_photo(client):
    r = post(client, "/v1/analyze", b"", rules="no_such_rules")
    assert_error(r, 400, "unknown_rules")


def test_recognize_checks_a_rule_set_named_before_the_photo(client):
    r = client.post("/v1/recognize", files={"image": ("x.jpg", b"", "image/jpeg")}, data={"rules": "no_such_rules"})
    assert_error(r, 400, "unknown_rules")


def test_analyze_unknown_option_is_400(client):
    assert_error(post(client, "/v1/analyze", jpeg_bytes(), options='{"no_such_option": true}'), 400, "unknown_option")


@pytest.mark.parametrize(("field", "text"), [("options", "{not json"), ("situation", "[1, 2]")])
def test_analyze_form_fields_must_be_json_objects(client, field, text):
    assert_error(post(client, "/v1/analyze", jpeg_bytes(), **{field: text}), 400, "bad_json")


def test_analyze_situation_that_no_hand_can_carry_is_422(client):
    r = post(client, "/v1/analyze", jpeg_bytes(), situation='{"seat_wind": "X"}')
    assert_error(r, 422, "bad_field")


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_the_server_answers_after_every_bad_upload(client):
    for data in (b"", b"junk", jpeg_bytes()[:500], png_bomb(12_000, 12_000)):
        post(client, "/v1/recognize", data)
    assert client.get("/healthz").json()["recognitions_running"] == 0
    assert client.get("/v1/rules").status_code == 200
