"""Fixtures of the API tests: an app without a tile model (fast; decoding and scoring are real), and the
real model and photos where the repository has them."""

from __future__ import annotations

from pathlib import Path

import pytest
from api_samples import dataset_photos
from fastapi.testclient import TestClient

from api.app import create_app
from api.routers.deps import Settings


@pytest.fixture()
def client() -> TestClient:
    """The app with no tile model: every check before recognition, and scoring, run for real."""
    with TestClient(create_app(model=None)) as c:
        yield c


@pytest.fixture(scope="session")
def tile_model():
    """The repository's tile model, loaded once; the test is skipped where models/ has none."""
    from api.analysis import NoModel, load_model

    try:
        return load_model()
    except NoModel as exc:
        pytest.skip(f"no tile model: {exc}")


@pytest.fixture()
def model_client(tile_model) -> TestClient:
    with TestClient(create_app(Settings(), model=tile_model)) as c:
        yield c


@pytest.fixture(scope="session")
def photo() -> Path:
    photos = dataset_photos()
    if not photos:
        pytest.skip("no test photo under datasets/")
    return photos[0]
