"""Reader.properties (issue 29): a base's own properties as a dict, through the binding.

A CCBridge library is written here from the format's facts (doc/formats/ccbridge.md: the
library's name at offset 64, its creator at 832, its remarks at 1088, the index size at 60,
UTF-16LE text), so the expected values are the bytes the test wrote, not the library's output.
"""
import os
import struct
import warnings

import gamedb

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TESTDATA = os.path.join(SRCDIR, "testdata")


def library(name="象棋桥", creator="Tester", remarks="a\r\nb\r\n"):
    d = bytearray(66624 + 276 * 2)
    d[0:16] = b"CCBridgeLibrary\0"
    struct.pack_into("<I", d, 60, 2)
    for off, text in ((64, name), (832, creator), (1088, remarks)):
        b = text.encode("utf-16-le", "surrogatepass")
        d[off:off + len(b)] = b
    return bytes(d)


def test_a_library_gives_its_header_fields():
    with gamedb.open_memory({"x.cbl": library()}) as r:
        p = r.properties
    assert list(p) == ["name", "source", "creator", "creator-email", "created", "modified",
                       "remarks", "guid", "index-size"]
    assert p["name"] == "象棋桥" and p["creator"] == "Tester" and p["source"] == ""
    assert p["remarks"] == "a\nb"
    assert p["index-size"] == "2"
    assert p["guid"] == "{00000000-0000-0000-0000-000000000000}"


def test_a_repaired_value_is_a_warning():
    # A lone high surrogate in the creator: U+FFFD, and a GamedbWarning naming it.
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with gamedb.open_memory({"x.cbl": library(creator="x\ud800y")}) as r:
            p = r.properties
    assert p["creator"] == "x\ufffdy"
    said = [str(x.message) for x in w if issubclass(x.category, gamedb.GamedbWarning)]
    assert any("offset 832: library creator" in m for m in said), said


def test_other_formats():
    with gamedb.open(os.path.join(TESTDATA, "chessassistant", "hand.cdp")) as r:
        assert r.properties == {"comment": r.chessassistant_comment} == {"comment": "Test base"}
    with gamedb.open(os.path.join(TESTDATA, "scid", "tags.si4")) as r:
        p = r.properties
        assert p["version"] == str(r.scid.version)
        assert p["description"] == r.scid.description
        assert p["base-type"] == str(r.scid.base_type)
        assert [p["custom-flag-%d" % k] for k in range(1, 7)] == list(r.scid.flag_names)
    with gamedb.open(os.path.join(TESTDATA, "ccbridge", "single.cbr")) as r:
        assert r.properties == {}
