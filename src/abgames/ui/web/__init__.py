"""The web front-end: a FastAPI app over ``abgames.match``, its SQLite store, its search pool.

``create_app(settings)`` in ``app.py`` builds the app; nothing happens at import time.
"""
