"""remis as an HTTP service: games driven by events over HTTP, stored as event logs.

``store`` keeps games and their event logs (SQLite or PostgreSQL), ``auth``
makes and checks the per-player and arbiter tokens, ``games`` serialises the
events of each game through the arbiter and the store, ``pool`` and ``mates``
run the searches in worker processes shared fairly between clients, and
``app`` puts the FastAPI application together from ``schemas`` (the bodies),
``middleware``, ``errors`` and one router per resource in ``routes``;
``serving`` runs it under uvicorn.  No rule is decided here.
"""
