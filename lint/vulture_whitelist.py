"""Names vulture cannot see used (make lint: vulture, configured in pyproject.toml).
Each line says who uses the name; decorated handlers, ``_on_<event>`` dispatch and
module ``__getattr__`` are ignored in [tool.vulture] instead."""
# ruff: noqa: B018

_ = object()  # vulture reads the names below; the file is never run

_.from_log  # remis.Arbiter.from_log: public API (docs/guide/arbitrate.md)
_.push_san  # remis.History.push_san: public API (docs/api/index.md, docs/guide/claim.md)
_.chased_pieces  # VariantHistory.chased_pieces: documented in docs/guide/variants.md
_.validated  # remis.replay(validated=...): kept for callers, documented as a no-op
_.readinto  # io.RawIOBase protocol (compressed.py), called by io.BufferedReader
_.file_response  # starlette StaticFiles hook, overridden in service/page.py
_.main_loop  # uvicorn.Server hook, overridden in service/serving.py
_.locale  # babel Catalog attribute set in i18n/catalog.py, read by Babel
_.comments  # ParsedGame field (the comment after each move, clocks): read by parse_game callers
_._both  # clock.py doctest helper: the same control for both players
_.serve_parser  # run in the parser child by the -c script of variants/isolation.py
# TypedDict keys of ArbiterState and pydantic response fields: read as JSON by clients
_.pending_offer, _.awaiting_arbiter, _.first_move_due, _.match_result
_.model_config, _.description, _.classification, _.quickplay
# used only by tests, kept as seams of a larger path: the audit of texts without Dask,
# the store's and cache's contents, the clock's period, the list of error codes
_.audit_replay, _.audit_texts, _.read_range, _.game_ids, _.cached, _.period_index, _.CODES
