"""POST /v1/score: the library's result over HTTP, and every refusal with the contract's status."""

from __future__ import annotations

import pytest
from api_samples import library_result

import scoring

# A complete 14-tile hand (four sets and a pair), won on 4p: valid under every 14-tile rule set.
HAND = {
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2p", "3p", "5z", "5z"],
    "melds": [],
    "win_tile": "4p",
    "self_drawn": True,
}


def fourteen_tile_rulesets() -> list[str]:
    return [name for name, rs in scoring.rulesets().items() if rs.hand_size == 13]


@pytest.mark.parametrize("rules", fourteen_tile_rulesets())
def test_score_is_the_library_result(client, rules):
    r = client.post("/v1/score", json={"rules": rules, "hand": HAND})
    expected = library_result(HAND, rules)
    if expected["ok"]:
        assert r.status_code == 200 and r.json() == expected
    else:
        assert r.status_code == 422 and r.json() == {"error": expected["error"]}


@pytest.mark.parametrize("rules", fourteen_tile_rulesets()[:1])
def test_compact_form_is_accepted(client, rules):
    compact = client.post("/v1/score", json={"rules": rules, "hand": "123m456p789s23p55z4p"})
    full = client.post("/v1/score", json={"rules": rules, "hand": {**HAND, "self_drawn": False}})
    assert compact.status_code == full.status_code
    assert compact.json() == full.json()


def test_unknown_rule_set_is_400(client):
    r = client.post("/v1/score", json={"rules": "no_such_rules", "hand": HAND})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "unknown_rules"
    assert "no_such_rules" in r.json()["error"]["message"]


def test_unknown_option_is_400(client):
    rules = next(iter(scoring.rulesets()))
    r = client.post("/v1/score", json={"rules": rules, "options": {"no_such_option": 1}, "hand": HAND})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "unknown_option"


def test_bad_option_value_is_400(client):
    name, rs = next((n, rs) for n, rs in scoring.rulesets().items() if any(o.kind == "bool" for o in rs.options))
    option = next(o.name for o in rs.options if o.kind == "bool")
    r = client.post("/v1/score", json={"rules": name, "options": {option: "perhaps"}, "hand": HAND})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_option"


def test_five_copies_is_422(client):
    rules = next(iter(scoring.rulesets()))
    hand = {**HAND, "concealed": ["4p"] * 4 + HAND["concealed"][4:]}
    r = client.post("/v1/score", json={"rules": rules, "hand": hand})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "too_many_copies"


def test_wrong_tile_count_is_422(client):
    rules = next(iter(scoring.rulesets()))
    r = client.post("/v1/score", json={"rules": rules, "hand": {**HAND, "concealed": HAND["concealed"][2:]}})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "wrong_tile_count"


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        ({**HAND, "concealed": ["1x"] + HAND["concealed"][1:]}, "unknown_tile"),
        ({**HAND, "melds": [{"type": "chow", "tiles": ["1m", "3m", "5m"]}]}, "bad_meld"),
        ({**HAND, "seat_wind": "Q"}, "bad_field"),
        (5, "bad_json"),
        ("", "bad_json"),
    ],
)
def test_hands_that_cannot_exist_are_422(client, hand, code):
    rules = next(iter(scoring.rulesets()))
    r = client.post("/v1/score", json={"rules": rules, "hand": hand})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == code


def test_body_that_is_not_json_is_400(client):
    r = client.post("/v1/score", content=b"{rules: riichi", headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_json"


def test_missing_hand_is_400_naming_the_field(client):
    r = client.post("/v1/score", json={"rules": "riichi"})
    assert r.status_code == 400
    assert r.json()["error"] == {"code": "bad_request", "message": "hand: Field required"}


def test_unexpected_failure_is_a_json_500_without_a_trace():
    from fastapi.testclient import TestClient

    from api.app import create_app

    app = create_app(model=None)

    def broken() -> None:
        raise RuntimeError("internal detail that must not leak")

    app.add_api_route("/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/broken")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal_error"
    assert "internal detail" not in r.text and "Traceback" not in r.text
