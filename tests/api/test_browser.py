"""The page in a real browser: headless Debian Chromium driven by Playwright against a real `mjscan serve`.

Skipped with the reason when Chromium (apt package ``chromium``) or the Python package ``playwright`` is
missing. Screenshots (375 x 812, a phone) go to $MJSCAN_SCREENSHOTS when set, else to the test's tmp folder.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from api_samples import (
    KnownTilesModel,
    app_server,
    dataset_photos,
    drawn_hand,
    labelled_photo,
    library_result,
    serving,
)

import scoring
from api import analysis
from vision.types import CLASSES

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 375, "height": 812}

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

# A riichi hand of simples, won on 4p by self-draw (tanyao, pinfu, menzen tsumo), and the same hand after
# one tile is corrected: 4m read as 1m makes 123m, which loses tanyao.
BEFORE = "2m 3m 4m 4p 5p 6p 6s 7s 8s 2p 3p 5s 5s".split()
CORRECTED_INDEX, CORRECTED_TO = 2, "1m"
WIN = "4p"


def shot_path(tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get("MJSCAN_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


@pytest.fixture(scope="module")
def server():
    with serving() as url:
        yield url


@pytest.fixture()
def page(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(server + "/")
        tab.wait_for_selector("body[data-ready=true]")
        yield tab
        assert not errors, f"JavaScript errors on the page: {errors}"
        browser.close()


def pick(page, opener: str, code: str) -> None:
    page.click(opener)
    page.click(f"#picker-grid .tile[data-code='{code}']")


def expected_total(tiles: list[str]) -> str:
    result = scoring.score({"concealed": tiles, "win_tile": WIN, "self_drawn": True}, rules="riichi")
    fu = f" {result.extra['fu']} fu" if "fu" in result.extra else ""
    return f"{result.total} {result.unit}{fu}"


def wait_total(page, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('#score .total')?.textContent === t && "
        "!document.querySelector('#score').classList.contains('stale')",
        arg=text,
        timeout=15000,
    )


@pytest.mark.skipif("riichi" not in scoring.rulesets(), reason="the riichi rule set is not there")
def test_enter_a_hand_correct_a_tile_and_the_score_changes(page, tmp_path):
    page.select_option("#ruleset", "riichi")
    for code in BEFORE:
        pick(page, "#concealed .tile.add", code)
    pick(page, "#win .tile", WIN)
    page.get_by_label("Self-drawn (tsumo)").check()
    before = expected_total(BEFORE)
    wait_total(page, before)
    assert page.locator("#patterns tr").count() >= 1

    page.locator("#concealed .tile").nth(CORRECTED_INDEX).click()
    page.click(f"#picker-grid .tile[data-code='{CORRECTED_TO}']")
    corrected = list(BEFORE)
    corrected[CORRECTED_INDEX] = CORRECTED_TO
    after = expected_total(corrected)
    assert after != before
    wait_total(page, after)
    assert page.locator("#concealed .tile").nth(CORRECTED_INDEX).get_attribute("data-code") == CORRECTED_TO

    assert_fits_a_phone(page)
    page.evaluate("document.getElementById('hand-box').scrollIntoView()")
    page.screenshot(path=str(shot_path(tmp_path, "page-entered-375x812.png")))

    # the rule set, the situation and the hand are remembered across a reload
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.input_value("#ruleset") == "riichi"
    assert page.get_by_label("Self-drawn (tsumo)").is_checked()
    wait_total(page, after)


def assert_fits_a_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a 375 px screen"


def test_every_rule_set_is_offered_and_its_controls_fit_a_phone(page):
    options = page.locator("#ruleset option").all_inner_texts()
    assert len(options) == len(scoring.rulesets()) + len(scoring.unscorable())
    for name, rs in scoring.rulesets().items():
        page.select_option("#ruleset", name)
        controls = page.locator("#situation > *").count()
        assert controls == len([f for f in rs.fields() if f.name != "flowers"]), name
        assert_fits_a_phone(page)


def test_page_works_offline_once_loaded(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now controlled by the service worker, which has cached the page
        page.wait_for_selector("body[data-ready=true]")
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator("#ruleset option").count() == len(scoring.rulesets()) + len(scoring.unscorable())
        pick(page, "#concealed .tile.add", "1m")
        page.wait_for_selector("#score .refusal")
        assert "cannot be reached" in page.inner_text("#score")
        browser.close()


def photo_flow(page, photo: Path, tmp_path: Path, shot: str, replacement: str | None = None) -> None:
    """Upload the photo, wait for the result, correct the first concealed tile (to ``replacement``, or to a
    tile it is not) and see the score change."""
    page.set_input_files("#photo", str(photo))
    page.wait_for_selector("#annotated-box:not([hidden])", timeout=60000)
    page.wait_for_function("() => !document.querySelector('#status').classList.contains('busy')")
    assert page.locator("#concealed .tile:not(.add)").count() > 0
    before = page.inner_text("#score")
    first = page.locator("#concealed .tile:not(.add)").first
    code = first.get_attribute("data-code")
    replacement = replacement or ("7z" if code != "7z" else "1m")
    assert code != replacement
    first.click()
    page.click(f"#picker-grid .tile[data-code='{replacement}']")
    page.wait_for_function(
        "before => !document.querySelector('#score').classList.contains('stale') && "
        "document.querySelector('#score').innerText !== before",
        arg=before,
        timeout=15000,
    )
    assert page.locator("#concealed .tile").first.get_attribute("data-code") == replacement
    assert_fits_a_phone(page)
    page.screenshot(path=str(shot_path(tmp_path, shot)))


@contextmanager
def riichi_tsumo_page(model: object) -> Iterator[object]:
    """A phone-sized page of a server reading photos with ``model``, riichi chosen, self-drawn ticked."""
    with app_server(model) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport=PHONE)
        page.goto(url + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.select_option("#ruleset", "riichi")
        page.get_by_label("Self-drawn (tsumo)").check()
        yield page
        browser.close()


@pytest.mark.skipif("riichi" not in scoring.rulesets(), reason="the riichi rule set is not there")
def test_drawn_photo_is_read_corrected_and_rescored(tmp_path):
    codes = list(BEFORE) + [WIN]
    codes[0] = "5z"  # the first tile misread: the hand is not complete until it is corrected
    data, model = drawn_hand(codes)
    photo = tmp_path / "drawn-hand.jpg"
    photo.write_bytes(data)
    with riichi_tsumo_page(model) as page:
        photo_flow(page, photo, tmp_path, "page-drawn-photo-375x812.png", BEFORE[0])
        assert page.locator("#score .refusal").count() == 0


@pytest.mark.skipif("riichi" not in scoring.rulesets(), reason="the riichi rule set is not there")
def test_the_picker_offers_the_codes_the_recogniser_found_likely_first(tmp_path):
    """The first tile misread 5z and scored low, the classifiers giving 2m (its right code) and 8m a little (too
    little for the hand's completion, ``vision.complete.ALT_MIN``): it is marked unsure, its picker shows them
    first, and one tap corrects it."""
    codes = list(BEFORE) + [WIN]
    codes[0] = "5z"
    data, model = drawn_hand(codes, unsure=0, likely={0: {"5z": 0.8, "2m": 0.06, "8m": 0.03}})
    with riichi_tsumo_page(model) as page:
        page.set_input_files("#photo", {"name": "drawn.jpg", "mimeType": "image/jpeg", "buffer": data})
        page.wait_for_selector("#annotated-box:not([hidden])", timeout=60000)
        page.wait_for_function("() => !document.querySelector('#status').classList.contains('busy')")
        unsure = page.locator("#concealed .tile.unsure")
        assert unsure.count() == 1 and unsure.first.get_attribute("data-code") == "5z"  # scored 0.3: marked
        page.locator("#concealed .tile:not(.add)").first.click()
        likely = page.locator("#picker-likely .tile")
        assert [likely.nth(k).get_attribute("data-code") for k in range(likely.count())] == ["2m", "8m"]
        assert_fits_a_phone(page)
        page.screenshot(path=str(shot_path(tmp_path, "page-picker-likely-375x812.png")))
        likely.first.click()
        wait_total(page, expected_total(BEFORE))
        assert page.locator("#concealed .tile").first.get_attribute("data-code") == "2m"
        assert page.locator("#concealed .tile.unsure").count() == 0  # corrected: no longer marked
        page.locator("#win .tile").first.click()  # the winning tile was read sure: no row of likely codes
        assert page.locator("#picker-likely").evaluate("e => getComputedStyle(e).display") == "none"


def test_a_flowers_picker_offers_its_likely_codes_too(tmp_path):
    """A flower read 6f and scored low, the classifiers giving 5f a fifth: it is marked unsure, tapping it
    offers 5f first, and one tap changes it and takes the mark away."""
    codes = ["6f", *BEFORE, WIN]
    data, model = drawn_hand(codes, unsure=0, likely={0: {"6f": 0.7, "5f": 0.2}})
    with riichi_tsumo_page(model) as page:
        page.set_input_files("#photo", {"name": "drawn.jpg", "mimeType": "image/jpeg", "buffer": data})
        page.wait_for_selector("#annotated-box:not([hidden])", timeout=60000)
        page.wait_for_function("() => !document.querySelector('#status').classList.contains('busy')")
        flower = page.locator("#flowers .tile:not(.add)")
        assert flower.count() == 1 and flower.first.get_attribute("data-code") == "6f"
        assert page.locator(".tile.unsure").count() == 1 and page.locator("#flowers .tile.unsure").count() == 1
        flower.first.click()
        likely = page.locator("#picker-likely .tile")
        assert [likely.nth(k).get_attribute("data-code") for k in range(likely.count())] == ["5f"]
        likely.first.click()
        assert page.locator("#flowers .tile:not(.add)").first.get_attribute("data-code") == "5f"
        assert page.locator(".tile.unsure").count() == 0


@pytest.mark.skipif("riichi" not in scoring.rulesets(), reason="the riichi rule set is not there")
def test_an_unsure_winning_tile_is_marked_and_keeps_its_mark_where_it_is_moved(tmp_path):
    """The winning tile scored low: it is marked unsure; moved to the concealed tiles it keeps its mark (and its
    likely codes), and a concealed tile removed before it does not move the mark onto another tile."""
    codes = [*BEFORE, WIN]
    data, model = drawn_hand(codes, unsure=len(BEFORE), likely={len(BEFORE): {WIN: 0.6, "9s": 0.3}})
    with riichi_tsumo_page(model) as page:
        page.set_input_files("#photo", {"name": "drawn.jpg", "mimeType": "image/jpeg", "buffer": data})
        page.wait_for_selector("#annotated-box:not([hidden])", timeout=60000)
        page.wait_for_function("() => !document.querySelector('#status').classList.contains('busy')")
        assert page.locator(".tile.unsure").count() == 1 and page.locator("#win .tile.unsure").count() == 1
        page.locator("#win").scroll_into_view_if_needed()
        page.screenshot(path=str(shot_path(tmp_path, "page-unsure-winning-tile-375x812.png")))
        page.locator("#win .tile").first.click()
        page.locator("#picker-actions").get_by_role("button", name="Move it to the concealed tiles").click()
        marked = page.locator("#concealed .tile.unsure")
        assert marked.count() == 1 and marked.first.get_attribute("data-code") == WIN
        assert "unsure" in page.locator("#concealed .tile:not(.add)").last.get_attribute("class")
        page.locator("#concealed .tile:not(.add)").first.click()
        page.locator("#picker-actions").get_by_role("button", name="Remove", exact=True).click()
        marked = page.locator("#concealed .tile.unsure")
        assert marked.count() == 1 and marked.first.get_attribute("data-code") == WIN
        marked.first.click()
        likely = page.locator("#picker-likely .tile")
        assert [likely.nth(k).get_attribute("data-code") for k in range(likely.count())] == ["9s"]


def test_a_meld_tiles_picker_offers_its_likely_codes_too():
    """A committed photo with a meld, read by the stand-in that answers with its labels, one tile of the meld
    scored low and given a likely other code: it is marked unsure, its picker offers that code first, and the
    mark goes when its code is confirmed."""
    photo = next((p for p in dataset_photos() if p.stem == "table-meld-row"), None)
    if photo is None:
        pytest.skip("no datasets/hk-sample/images/table-meld-row.jpg")
    sure = labelled_photo(photo)
    recognition, _ = analysis.recognize(photo.read_bytes(), sure)
    tile = recognition.to_json()["hand_tiles"]["melds"][0][1]
    code = recognition.tiles[tile].code
    other = "9s" if code != "9s" else "8s"
    codes = [CLASSES[c] for c in sure.class_ids]
    model = KnownTilesModel(codes, sure.boxes, unsure=tile, likely={tile: {code: 0.85, other: 0.1}})
    with riichi_tsumo_page(model) as page:
        page.set_input_files("#photo", str(photo))
        page.wait_for_selector("#annotated-box:not([hidden])", timeout=60000)
        page.wait_for_function("() => !document.querySelector('#status').classList.contains('busy')")
        meld = page.locator("#melds .meld").first.locator(".tile:not(.add)")
        assert page.locator(".tile.unsure").count() == 1 and "unsure" in meld.nth(1).get_attribute("class")
        meld.nth(1).click()
        likely = page.locator("#picker-likely .tile")
        assert [likely.nth(k).get_attribute("data-code") for k in range(likely.count())] == [other]
        page.locator(f"#picker .tile[data-code='{code}']").first.click()  # confirmed as read
        assert page.locator(".tile.unsure").count() == 0


@pytest.mark.skipif("riichi" not in scoring.rulesets(), reason="the riichi rule set is not there")
def test_a_tile_missed_is_offered_first_when_a_tile_is_added(tmp_path):
    """The photo's 5s of the pair not found: the hand is one tile short, and the picker of the tile to add
    offers the codes that would complete it (5s, or 1p 4p to finish the 23p) first; one tap completes it."""
    codes = [c for k, c in enumerate(BEFORE) if k != len(BEFORE) - 1] + [WIN]
    data, model = drawn_hand(codes)
    with riichi_tsumo_page(model) as page:
        page.set_input_files("#photo", {"name": "drawn.jpg", "mimeType": "image/jpeg", "buffer": data})
        page.wait_for_selector("#annotated-box:not([hidden])", timeout=60000)
        page.wait_for_function("() => !document.querySelector('#status').classList.contains('busy')")
        page.click("#concealed .tile.add")
        likely = page.locator("#picker-likely .tile")
        offered = [likely.nth(k).get_attribute("data-code") for k in range(likely.count())]
        assert "5s" in offered
        page.click("#picker-likely .tile[data-code='5s']")
        wait_total(page, expected_total(BEFORE))
        page.click("#concealed .tile.add")  # the hand changed: nothing is offered any more
        assert page.locator("#picker-likely").evaluate("e => getComputedStyle(e).display") == "none"


def a_correction_that_changes_the_score(photo: Path, model: object) -> tuple[str, str]:
    """A rule set and a code for the photo's first concealed tile under which the score (or the refusal)
    differs from the one of the photo as read."""
    recognition, _ = analysis.recognize(photo.read_bytes(), model)
    hand = recognition.to_json()["hand"]
    assert hand["concealed"], f"{photo.name}: no concealed tile was read"

    for rules in scoring.rulesets():
        for code in ("1m", "5p", "9s", "7z"):
            changed = {**hand, "concealed": [code, *hand["concealed"][1:]]}
            if code != hand["concealed"][0] and library_result(changed, rules) != library_result(hand, rules):
                return rules, code
    raise AssertionError(f"{photo.name}: no one-tile correction changes the score under any rule set")


def test_dataset_photo_is_read_corrected_and_rescored(tmp_path):
    """A photo from datasets/ read by the stand-in that answers with its labels (so it runs everywhere)."""
    photos = dataset_photos()
    if not photos:
        pytest.skip("no test photo under datasets/")
    photo = next((p for p in photos if p.stem == "row-flower"), photos[0])
    model = labelled_photo(photo)
    rules, code = a_correction_that_changes_the_score(photo, model)
    with app_server(model) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport=PHONE)
        page.goto(url + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.select_option("#ruleset", rules)
        photo_flow(page, photo, tmp_path, "page-dataset-photo-375x812.png", code)
        browser.close()


def test_photo_is_read_corrected_and_rescored(server, tmp_path):
    from api.analysis import NoModel, load_model

    try:
        model = load_model()
    except NoModel as exc:
        pytest.skip(f"no tile model: {exc}")
    photos = dataset_photos()
    if not photos:
        pytest.skip("no test photo under datasets/")
    photo = next((p for p in photos if p.stem == "row-flower"), photos[0])
    rules, code = a_correction_that_changes_the_score(photo, model)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport=PHONE)
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.select_option("#ruleset", rules)
        photo_flow(page, photo, tmp_path, "page-photo-375x812.png", code)
        browser.close()


def test_chromium_is_debian_s(tmp_path):
    assert shutil.which("chromium") == CHROMIUM or Path(CHROMIUM).exists()
