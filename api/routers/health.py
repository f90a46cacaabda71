"""``GET /healthz``: the server answers, which model it loaded and how busy it is."""

from __future__ import annotations

from fastapi import APIRouter

from api.routers.deps import State
from api.schemas import Health
from scoring import rulesets

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, summary="Is the server up, with which model")
def healthz(state: State) -> dict:
    """Answers at once, also while photos are being recognised (recognition runs in worker threads)."""
    return {
        "status": "ok" if state.model is not None else "no_model",
        "model": state.model_info(),
        "rules": sorted(rulesets()),
        "recognitions_running": state.running,
        "limits": {"max_upload_bytes": state.settings.max_upload_bytes, "max_pixels": state.settings.max_pixels},
    }
