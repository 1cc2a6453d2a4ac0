"""Lifetimes and threads in the Python binding (python/gamedb).

What ordinary Python code may do with readers, games and move iterators, and what it must get:

- a move iterator keeps its game's C copy alive: closing the game (or dropping it) while an
  iterator runs leaves the iterator working to its end, and the copy is freed after it;
- a game keeps its reader alive until it has its own copy;
- closing a reader from one thread while another iterates it, reads games or their moves waits
  for the call in progress; what the other thread does next raises GamedbError (E_MISUSE, "the
  reader is closed"), never touches freed memory;
- two threads iterating one reader share its games between them, each game whole and right;
- two threads on one game, or on one move iterator, get right results.

Expected results are those of the same reader used from one thread only, which the other tests
check against outside references (the real Scid's export, the bases' source PGN).
Thread tests are bounded: a fixed number of rounds, and every thread is joined with a timeout.
These tests are meant for the sanitizer build too (tests/pyrun.py preloads the ASan runtime),
where a use of freed memory fails them at once.
"""
import gc
import os
import threading

import pytest

import gamedb

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TESTDATA = os.environ.get("GAMEDB_TESTDATA") or os.path.join(SRCDIR, "testdata")
REALDATA = os.environ.get("GAMEDB_REALDATA") or os.path.join(SRCDIR, "..", "shared", "realdata")
TACTICS = os.path.join(REALDATA, "scid", "scidvspc-modern", "si4", "tactics", "tactics.si4")
FIVE = os.path.join(REALDATA, "scid", "scidtopgn", "five", "five.si4")
FIXTURE = os.path.join(TESTDATA, "scid", "moves.si4")
LATIN1 = os.path.join(TESTDATA, "scid", "latin1.si4")

JOIN_TIMEOUT = 120  # seconds per thread; a hang fails the test instead of the whole run


@pytest.fixture
def many():
    """A base with many games (the real tactics base, 928 games; else the in-tree fixture)."""
    for path in (TACTICS, FIXTURE):
        if os.path.exists(path):
            return path
    pytest.skip("no SCID base found")


@pytest.fixture
def small():
    for path in (FIVE, FIXTURE):
        if os.path.exists(path):
            return path
    pytest.skip("no SCID base found")


def events(game):
    """The whole event stream of a game as plain tuples."""
    return [(e.type, e.depth, e.san, e.uci, e.text, e.nag) for e in game.moves()]


def snapshot(game):
    return (game.index, game.tag_list, game.fen, game.deleted, events(game))


def reference(path):
    """{index: snapshot} of every game, read from one thread."""
    with gamedb.open(path) as r:
        return {g.index: snapshot(g) for g in r}


def run_threads(*targets):
    """Runs each callable in its own thread; returns the exceptions they raised (by position)
    and fails if one does not finish in time."""
    errors = [None] * len(targets)

    def wrap(i, fn):
        try:
            fn()
        except BaseException as e:  # reported to the test, not lost in the thread
            errors[i] = e

    threads = [threading.Thread(target=wrap, args=(i, fn), daemon=True)
               for i, fn in enumerate(targets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_TIMEOUT)
        assert not t.is_alive(), "a thread did not finish in %d s" % JOIN_TIMEOUT
    return errors


def is_closed_error(e):
    """The clear exception of a reader closed under a thread's feet."""
    return isinstance(e, gamedb.GamedbError) and e.detail == gamedb.E_MISUSE and \
        "closed" in e.message


# ---- a move iterator keeps its game alive ----------------------------------------------

def test_iterator_outlives_game_close(small):
    ref = reference(small)
    with gamedb.open(small) as r:
        g = next(r)
        it = g.moves()
        first = next(it)
        g.close()                      # the iterator still uses the game's C copy
        gc.collect()
        rest = list(it)                # was: gamedb_move_iter_next on freed memory
        got = [first] + rest
        assert [(e.type, e.depth, e.san, e.uci, e.text, e.nag) for e in got] == ref[g.index][4]
        # The game itself is closed: its moves are gone, its headers stay.
        assert g.tags == dict(ref[g.index][1]) or g.tag_list == ref[g.index][1]
        with pytest.raises(gamedb.GamedbError):
            g.moves()


def test_iterator_outlives_game_close_before_first_event(small):
    ref = reference(small)
    with gamedb.open(small) as r:
        games = list(r)
    its = [g.moves() for g in games]
    for g in games:
        g.close()
    del games
    gc.collect()
    for it, (index, snap) in zip(its, sorted(ref.items())):
        assert [(e.type, e.depth, e.san, e.uci, e.text, e.nag) for e in it] == snap[4]


def test_game_copy_freed_after_last_iterator(small):
    with gamedb.open(small) as r:
        g = next(r)
        # The per-event iterators, which run on the game's C copy (g.moves() takes the whole
        # game at once and holds no copy).
        it1, it2 = gamedb.MoveIterator(g, 0), gamedb.MoveIterator(g, 0)
        g.close()
        list(it1)
        assert g._zombie is not None   # it2 still needs the copy
        it2.close()
        assert g._zombie is None       # the last user freed it
        assert next(it2, None) is None


def test_iterator_keeps_game_and_reader_alive(small):
    ref = reference(small)
    r = gamedb.open(small)
    g = next(r)
    it = g.moves()
    del g, r                           # only the iterator is left
    gc.collect()
    assert [(e.type, e.depth, e.san, e.uci, e.text, e.nag) for e in it] == ref[0][4]


def test_game_keeps_reader_alive(small):
    ref = reference(small)
    r = gamedb.open(small)
    games = list(r)
    del r
    gc.collect()
    for g in games:
        assert snapshot(g) == ref[g.index]


def test_iterator_after_reader_close(small):
    ref = reference(small)
    with gamedb.open(small) as r:
        g = next(r)
        it = g.moves()
    assert r.closed
    assert [(e.type, e.depth, e.san, e.uci, e.text, e.nag) for e in it] == ref[0][4]


# ---- a reader closed from another thread ------------------------------------------------

def test_close_from_another_thread_while_iterating(many):
    """One thread reads games and their moves (gamedb_game_dup under the hood) while another
    closes the reader: was a heap-use-after-free in gamedb__pos_make under gamedb_game_dup."""
    ref = reference(many)
    n = len(ref)
    for rnd in range(12):
        r = gamedb.open(many)
        got = {}
        started = threading.Event()
        stop_after = 1 + (rnd * 37) % max(1, n // 2)

        def reader_thread():
            try:
                for g in r:
                    if len(got) == stop_after:
                        started.set()
                    got[g.index] = snapshot(g)
            finally:
                started.set()

        def closer_thread():
            started.wait(JOIN_TIMEOUT)
            r.close()

        errors = run_threads(reader_thread, closer_thread)
        assert errors[1] is None
        assert errors[0] is None or is_closed_error(errors[0]), repr(errors[0])
        assert r.closed
        for index, snap in got.items():
            assert snap == ref[index], "game %d" % index
        assert len(got) >= min(stop_after, n)


def test_close_from_another_thread_while_reading_moves(many):
    """Games read first, their moves asked for in one thread (the reader seeks back for each)
    while another thread closes the reader: every game is whole, or the clear exception."""
    ref = reference(many)
    for rnd in range(6):
        r = gamedb.open(many)
        games = [next(r) for _ in range(min(len(ref), 200))]
        got = {}
        half = threading.Event()

        def mover():
            for k, g in enumerate(games):
                if k == 20 + rnd * 10:
                    half.set()
                got[g.index] = events(g)
            half.set()

        def closer():
            half.wait(JOIN_TIMEOUT)
            r.close()

        errors = run_threads(mover, closer)
        assert errors == [None, None]
        # close() gave every game still without its copy one first: all moves are there.
        for index, evs in got.items():
            assert evs == ref[index][4], "game %d" % index
        assert len(got) == len(games)


def test_use_after_close_raises(small):
    r = gamedb.open(small)
    r.close()
    for call in (lambda: next(r), lambda: r.seek(0), lambda: r[0], lambda: r.game_count,
                 lambda: r.set_option("charset", "CP1252")):
        with pytest.raises(gamedb.GamedbError) as e:
            call()
        assert is_closed_error(e.value)


# ---- two threads on one reader, one game, one iterator ---------------------------------

def test_two_threads_iterate_one_reader(many):
    """Two threads take games from one reader: was valid games coming out FAILED ("illegal
    move", "castling not allowed") or with another game's headers. Every game a thread gets must
    be the one the single-threaded reader gives at that index (or raise the clear exception),
    and between them the threads get every game once."""
    ref = reference(many)
    for rnd in range(4):
        r = gamedb.open(many)
        got = [{}, {}]
        failures = [[], []]

        def worker(k):
            def run():
                while True:
                    try:
                        g = next(r)
                    except StopIteration:
                        return
                    except gamedb.GamedbError as e:
                        failures[k].append(e)
                        if not is_closed_error(e):
                            continue
                        return
                    try:
                        got[k][g.index] = snapshot(g)
                    except gamedb.GamedbError as e:
                        failures[k].append(e)
            return run

        errors = run_threads(worker(0), worker(1))
        r.close()
        assert errors == [None, None]
        for k in (0, 1):
            assert all(is_closed_error(e) for e in failures[k]), failures[k][:3]
            for index, snap in got[k].items():
                assert snap == ref[index], "thread %d, game %d" % (k, index)
        assert not set(got[0]) & set(got[1]), "a game was handed out twice"
        assert set(got[0]) | set(got[1]) == set(ref)


def test_two_threads_read_one_game(many):
    ref = reference(many)
    with gamedb.open(many) as r:
        games = [next(r) for _ in range(min(len(ref), 40))]
        next(r, None)   # the reader has moved on: each game's copy is made by seeking back
        results = [[], []]

        def worker(k):
            def run():
                for g in games:
                    results[k].append((g.index, events(g), g.pgn()))
            return run

        errors = run_threads(worker(0), worker(1))
        assert errors == [None, None]
        assert results[0] == results[1]
        for index, evs, _ in results[0]:
            assert evs == ref[index][4]


def test_two_threads_share_one_move_iterator(many):
    ref = reference(many)
    with gamedb.open(many) as r:
        longest = max(ref, key=lambda i: len(ref[i][4]))
        g = r[longest]
        for rnd in range(5):
            it = g.moves()
            seen = [[], []]

            def worker(k):
                def run():
                    for e in it:
                        seen[k].append((e.type, e.depth, e.san, e.uci, e.text, e.nag))
                return run

            errors = run_threads(worker(0), worker(1))
            assert errors == [None, None]
            expected = ref[longest][4]
            assert len(seen[0]) + len(seen[1]) == len(expected)
            # Each thread's events come in the game's order, and together they are the game.
            for k in (0, 1):
                pos = 0
                for ev in seen[k]:
                    pos = expected.index(ev, pos) + 1
            assert sorted(seen[0] + seen[1], key=repr) == sorted(expected, key=repr)


def test_close_game_from_another_thread_while_iterating(many):
    ref = reference(many)
    with gamedb.open(many) as r:
        longest = max(ref, key=lambda i: len(ref[i][4]))
        for rnd in range(8):
            g = r[longest]
            it = g.moves()
            seen = []
            step = threading.Event()

            def iterate():
                for k, e in enumerate(it):
                    if k == rnd * 3:
                        step.set()
                    seen.append((e.type, e.depth, e.san, e.uci, e.text, e.nag))
                step.set()

            def close():
                step.wait(JOIN_TIMEOUT)
                g.close()

            assert run_threads(iterate, close) == [None, None]
            assert seen == ref[longest][4]


# ---- callbacks ----------------------------------------------------------------------------

def test_close_from_a_converter_callback_is_deferred():
    """A converter that closes its own reader while the library is inside a call on it: the
    close waits for the call to return; the game that call produced is complete."""
    if not os.path.exists(LATIN1):
        pytest.skip("no latin1 fixture")
    ref = reference(LATIN1)
    holder = {}

    def converter(charset, raw):
        r = holder.get("reader")
        if r is not None:
            r.close()
        return None   # let the library convert

    r = gamedb.open(LATIN1, converter=converter)
    holder["reader"] = r
    got = []
    with pytest.raises(gamedb.GamedbError) as e:
        for g in r:
            got.append(g)
    assert is_closed_error(e.value)
    assert r.closed
    assert got, "the game being read when close() was asked for is delivered"
    for g in got:
        assert g.index in ref
        assert events(g) == ref[g.index][4]
    holder.clear()
