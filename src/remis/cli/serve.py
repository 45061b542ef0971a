"""``remis serve``: run the HTTP service (FastAPI under uvicorn).

The port is taken before anything else starts, so that a port in use is
reported at once; the line ``listening on http://HOST:PORT`` is printed
once the service answers.  A database URL may come from ``REMIS_DB`` instead
of ``--db``, and a password written in ``--db`` is masked in the process's
command line (which ``ps`` shows to every user of the machine).
"""

from __future__ import annotations

import argparse
import copy
import os
from typing import Any

from remis.cli.cmdline import hide
from remis.cli.common import warn
from remis.service.limits import Limits

#: the environment variable a database URL may come from (kept out of ``ps``)
DB_ENV = "REMIS_DB"
#: the default database
DEFAULT_DB = "sqlite:///remis.db"


def port(text: str) -> int:
    """A TCP port number, 0 to 65535 (0: any free port; the line printed at
    start says which).

    >>> port("8000")
    8000
    >>> port("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 99999 is not a TCP port (0 to 65535)
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (0 to 65535)")
    return value


def register(sub: Any) -> None:
    """Add the ``serve`` sub-command.

    >>> from remis.cli import build_parser
    >>> a = build_parser().parse_args(["serve", "--port", "0"])
    >>> a.host, a.port, a.db, a.mate_workers, a.forwarded_allow_ips
    ('127.0.0.1', 0, None, 1, '')
    """
    p = sub.add_parser("serve", help="run the HTTP API and web page (FastAPI + uvicorn)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=port, default=8000,
                   help="TCP port, 0 to 65535 (8000; 0: any free port)")
    p.add_argument("--db", default=None, metavar="URL",
                   help=f"sqlite:///FILE or postgresql://USER@HOST/DB (default: ${DB_ENV}, "
                        f"else {DEFAULT_DB}); a PostgreSQL password is best kept out of the "
                        f"URL (PGPASSWORD or ~/.pgpass) or the URL in ${DB_ENV}: a command "
                        "line is visible to every user of the machine")
    p.add_argument("--forwarded-allow-ips", default=os.environ.get("FORWARDED_ALLOW_IPS", ""),
                   metavar="ADDRESSES",
                   help="comma-separated addresses or networks of reverse proxies whose "
                        "X-Forwarded-For header names the client (its address is what the "
                        "limits per client count); '*' trusts every peer (default: "
                        "$FORWARDED_ALLOW_IPS, else none: the header is ignored)")
    p.add_argument("--mate-workers", type=int, default=1, metavar="N",
                   help="worker processes for the 'can the opponent still mate?' search of "
                        "resignations and flag falls (1; 0: in the request's thread)")
    limits = Limits()
    p.add_argument("--max-events", type=int, default=limits.events, metavar="N",
                   help=f"events a game may have in all ({limits.events})")
    p.add_argument("--max-idle-events", type=int, default=limits.between_moves, metavar="N",
                   help="events in a row without a move, e.g. touches, offers, claims "
                        f"({limits.between_moves})")
    p.add_argument("--cache-mb", type=int, default=limits.cache_bytes >> 20, metavar="MB",
                   help="estimated memory of the games kept in memory; the least recently "
                        "used are dropped and rebuilt from the database "
                        f"({limits.cache_bytes >> 20})")
    p.add_argument("--clock-skew", type=float, default=limits.skew, metavar="SECONDS",
                   help="how far before the server's receive time a player's own 'at' may "
                        "lie (not in online games, where the server's clock is the only one; "
                        f"{limits.skew:g})")
    p.add_argument("--search-workers", type=int, default=1, metavar="N",
                   help="worker processes for /v1/position, /v1/pgn and /v1/claim, apart from "
                        "the mate searches (1; 0: a thread of the service)")
    p.add_argument("--search-nodes", type=int, default=limits.search_nodes, metavar="N",
                   help="search budget of one stateless request, all its searches together "
                        f"({limits.search_nodes:,})")
    p.add_argument("--first-pass-nodes", type=int, default=limits.first_pass_nodes,
                   metavar="N",
                   help="search budget of the first pass that every search (a stateless "
                        "request's, a live game's mate search) gets before it waits for the "
                        "whole budget: ordinary questions are settled there in milliseconds, "
                        f"whatever other clients ask ({limits.first_pass_nodes:,}; at least "
                        "16,384; 0: no first pass)")
    p.add_argument("--search-seconds", type=float, default=limits.search_seconds,
                   metavar="SECONDS", help="seconds budget of one stateless request "
                                           f"({limits.search_seconds:g})")
    p.add_argument("--searches-per-client", type=int, default=limits.searches_per_client,
                   metavar="N", help="searches of one client address running at once, in "
                                     f"each pool ({limits.searches_per_client})")
    p.add_argument("--waiting-per-client", type=int, default=limits.waiting_per_client,
                   metavar="N", help="searches of one client address waiting, in each pool; "
                                     f"more get 429 ({limits.waiting_per_client})")
    p.add_argument("--log-level", default="warning",
                   choices=["critical", "error", "warning", "info", "debug"],
                   help="log level of the service and of uvicorn (warning)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``remis serve`` (blocks until interrupted).  A bad option or
    database URL is reported on stderr with exit status 2, a port in use or
    a database that cannot be opened with 1, both before any worker starts.

    >>> from remis.cli import build_parser
    >>> run(build_parser().parse_args(["serve", "--db", "mysql://localhost/x"]))
    2
    """
    try:
        import uvicorn

        from remis.service.app import create_app
        from remis.service.middleware import trusted_proxies
        from remis.service.serving import AnnouncingServer, address, listen, reason
    except ImportError as exc:
        warn(f"the service needs its extra: pip install 'remis[service]' ({exc})")
        return 2
    from remis.service.stateless import SLICE_NODES
    from remis.service.store import check_url, password_of, redact

    db = args.db if args.db is not None else os.environ.get(DB_ENV, DEFAULT_DB)
    if args.db is not None:
        hide(password_of(args.db))
    if 0 < args.first_pass_nodes < SLICE_NODES:
        warn(f"--first-pass-nodes {args.first_pass_nodes}: use at least {SLICE_NODES:,} "
             "(or 0 for no first pass)")
        return 2
    try:
        proxies = trusted_proxies(args.forwarded_allow_ips)
    except ValueError as exc:
        warn(f"--forwarded-allow-ips: {exc}")
        return 2
    try:
        check_url(db)
    except ValueError as exc:
        warn(redact(f"--db: {exc}", db))
        return 2
    try:
        sock = listen(args.host, args.port)
    except OSError as exc:
        warn(f"cannot listen on {address(args.host, args.port)}: {reason(exc)}")
        return 1
    try:
        limits = Limits(events=args.max_events, between_moves=args.max_idle_events,
                        cache_bytes=args.cache_mb << 20, skew=args.clock_skew,
                        search_nodes=args.search_nodes, search_seconds=args.search_seconds,
                        first_pass_nodes=args.first_pass_nodes,
                        searches_per_client=args.searches_per_client,
                        waiting_per_client=args.waiting_per_client)
        app = create_app(db, mate_workers=max(0, args.mate_workers),
                         search_workers=max(0, args.search_workers), limits=limits,
                         forwarded_allow_ips=proxies)
    except ValueError as exc:
        sock.close()
        warn(redact(f"--db: {exc}", db))
        return 2
    except Exception as exc:  # cannot open the database: say which and why, without secrets
        sock.close()
        warn(redact(f"--db {db}: cannot open the database: {exc}", db))
        return 1
    tune_gc()
    tune_switching()
    host, bound = sock.getsockname()[:2]
    # the client's address is ours to read (middleware): uvicorn trusts none itself
    config = uvicorn.Config(app, log_level=args.log_level, access_log=False,
                            proxy_headers=False, log_config=log_config(args.log_level))
    server = AnnouncingServer(config, f"listening on http://{address(host, bound)}")
    try:
        server.run(sockets=[sock])
    except SystemExit as exc:  # uvicorn's "startup failed" (its log says why)
        warn("the service did not start")
        return 1 if exc.code else 0
    return 0 if server.started else 1


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration, with the service's own logger
    (``remis``: workers killed or restarted, for one) on the same handler:
    without it those messages went nowhere.

    >>> log_config("info")["loggers"]["remis"]["level"]
    'INFO'
    """
    import uvicorn.config

    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["loggers"]["remis"] = {"handlers": ["default"], "level": level.upper(),
                                  "propagate": False}
    return config


#: net new container objects between two young collections (CPython's default: 700)
GC_YOUNG = 10_000
#: young collections between two collections of the middle generation (CPython's default: 10)
GC_MIDDLE = 2


def tune_gc() -> None:
    """Keep the garbage collector's pauses out of the requests' latency.

    What is built before serving (modules, the app) lives as long as the
    process: frozen, a full collection no longer walks it.  And a request's
    objects mostly die by reference counting: with CPython's default
    threshold, the ones alive at a young collection (hundreds a second under
    load) were promoted to the oldest generation and made a full collection,
    which stops every request for as long as it walks the games in memory,
    run every few seconds (measured: 16 a minute, up to 110 ms each).
    What survives young collections (mostly the games kept in memory) waits
    in the middle generation, which is walked whole when it is collected: after
    every 2 young collections rather than 10, each such pause is a fifth as
    long (the longest pauses went from about 75 ms to under 20), for about
    the same time in all.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> tune_gc(); gc.get_threshold()[:2] == (GC_YOUNG, GC_MIDDLE)
    True
    >>> gc.unfreeze(); gc.set_threshold(*before)
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, GC_MIDDLE, gc.get_threshold()[2])


#: seconds a thread may keep the GIL once another asks for it (CPython's default: 0.005)
SWITCH_INTERVAL = 0.0005


def tune_switching() -> None:
    """Hand the GIL sooner to a thread that asks for it.

    The SQLite writer thread gives the GIL up at each statement of a group
    commit (BEGIN, each row, COMMIT) and then asks for it back while the
    event loop runs the other requests: at CPython's 5 ms a statement, the
    moves waiting for that commit waited up to 5 ms a statement with it, the
    slowest of them tens of milliseconds.  A shorter interval costs a few
    more hand-offs, and only while a thread is waiting.

    >>> import sys
    >>> before = sys.getswitchinterval()
    >>> tune_switching(); sys.getswitchinterval() == SWITCH_INTERVAL
    True
    >>> sys.setswitchinterval(before)
    """
    import sys

    sys.setswitchinterval(SWITCH_INTERVAL)
