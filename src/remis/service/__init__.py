"""remis as an HTTP service: games driven by events over HTTP, stored as event logs.

``store`` keeps games and their event logs (SQLite or PostgreSQL), ``auth``
makes and checks the per-player and arbiter tokens, ``games`` serialises the
events of each game through the arbiter and the store, and ``app`` is the
FastAPI application that puts HTTP around them.  No rule is decided here.
"""
