"""The /api/learn/* routes of the /learn page (a placeholder until that page lands)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
