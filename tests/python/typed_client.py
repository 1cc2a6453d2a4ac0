"""A program written against the binding's public API, type-checked with mypy --strict by
tests/test-python-package.py: the binding's hints must let a strict client through without
a cast or an ignore (a function without hints is an error there: "untyped call")."""
from typing import Dict, List, Optional, Tuple

import gamedb


def summary(path: str) -> Tuple[int, List[str], Optional[int]]:
    names: List[str] = [f.name for f in gamedb.formats()]
    moves = 0
    with gamedb.open(path, errors="skip", options={"charset-detect": "yes"}) as r:
        count: Optional[int] = r.game_count
        for g in r:
            tags: Dict[str, str] = g.tags
            white: str = tags.get("White", "?")
            for ev in g.moves(fen=True):
                if ev.type == "move" and ev.san is not None:
                    moves += len(white) > -1
            text: str = g.pgn()
            d = g.to_dict()
            key: int = g.start_key()
            for fen, k, uci in g.positions():
                assert isinstance(fen, str) and isinstance(k, int) and isinstance(uci, str)
            del text, d, key
        first: gamedb.Game = r[0]
        some: List[gamedb.Game] = r[0:2]
        del first, some
    data: Optional[bytes] = gamedb.book([path], min_game=1)
    del data
    return moves, names, count


def ledger(path: str) -> Tuple[int, int, int, List[Tuple[int, Optional[str], str]]]:
    """The loss ledger: every failure caught, the iteration resumed, the counts read."""
    failures: List[Tuple[int, Optional[str], str]] = []
    with gamedb.open(path) as r:
        while True:
            try:
                g = next(r)
                text: str = g.pgn()
                warning: Optional[str] = g.warning
                del text, warning
            except StopIteration:
                break
            except gamedb.GameFailed as e:
                number: int = e.number
                failures.append((e.index + 0 * number, e.file, e.message))
        counts: gamedb.Ledger = r.ledger
        assert counts.delivered + counts.failed == (r.game_count or 0)
        return r.delivered, r.failed, r.warned, failures
