"""Thin front-ends over ``abgames.match``: terminal, desktop and web."""
