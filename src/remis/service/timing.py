"""The time of record of a live game's events, and who may set it.

The server stamps every event with the time it received it (seconds since
the game was created).  In an online game that stamp is the only clock: an
``at`` in the request is refused.  Over the board, a client may send the
time the event happened (a digital clock or board relaying a press a moment
late): from the arbiter's token it is taken as given, being the arbiter's to
decide (it must still not go back in time); from a player's token it is held
between ``skew`` seconds before the server's receive time and the receive
time itself, so a player can neither stop their own clock nor run the
opponent's ahead.  No time of record is ever earlier than the previous
event's (a server clock stepped back, or an arbiter's time in the future).
"""

from __future__ import annotations

#: how many seconds before the server's receive time a player's own ``at`` may lie
SKEW = 2.0


def time_of_record(at: float | None, *, received: float, last: float, role: str,
                   online: bool, skew: float = SKEW) -> float:
    """The time of record of an event that claims ``at`` (None: not given),
    received at ``received``, after a previous event at ``last``, posted by
    the holder of the ``role`` token.  ValueError (a sentence for a 422)
    when the request may not set the time.

    >>> time_of_record(None, received=30.0, last=12.0, role="white", online=True)
    30.0
    >>> time_of_record(1e9, received=30.0, last=12.0, role="white", online=False)
    30.0
    >>> time_of_record(12.0, received=30.0, last=12.0, role="black", online=False)
    28.0
    >>> time_of_record(29.5, received=30.0, last=12.0, role="black", online=False)
    29.5
    >>> time_of_record(5400.0, received=30.0, last=12.0, role="arbiter", online=False)
    5400.0
    >>> time_of_record(None, received=30.0, last=5400.0, role="white", online=False)
    5400.0
    >>> time_of_record(31.0, received=30.0, last=12.0, role="white", online=True)
    Traceback (most recent call last):
    ...
    ValueError: 'at': an online game runs on the server's clock only; leave 'at' out
    """
    if at is None:
        return max(received, last)
    if online:
        raise ValueError("'at': an online game runs on the server's clock only; leave 'at' out")
    if role == "arbiter":
        return at
    return max(min(max(at, received - skew), received), last)
