# libgamedb - the build backend of the Python package (PEP 517, PEP 660), in the tree.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Builds the wheel and the sdist of the pure-Python package ``gamedb`` with the standard
library alone, so that ``pip install --no-index ./python`` works offline in a fresh venv,
which holds pip and nothing else (issue 28): setuptools and wheel are neither needed nor
fetched. pyproject.toml names this module with ``backend-path`` and requires nothing.

The wheel (``py3-none-any``) holds ``gamedb/`` (its .py files and the PEP 561 marker
``py.typed``) and the ``.dist-info`` folder the wheel spec asks for: METADATA (core metadata
2.1, from the ``[project]`` table of pyproject.toml, README.md as its description), WHEEL and
RECORD (sha256 and size of every file). Entries carry a fixed time (SOURCE_DATE_EPOCH if set),
so that the same tree gives the same bytes.
"""
import base64
import gzip
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
PACKAGE = "gamedb"
TAG = "py3-none-any"


def _toml_project(text):
    """The [project] table of pyproject.toml: with tomllib (3.11+), else a reader of the
    forms that table uses (strings, arrays of strings, inline tables of strings)."""
    try:
        import tomllib
        return tomllib.loads(text)["project"]
    except ImportError:
        pass
    string = r'"((?:[^"\\]|\\.)*)"'

    def unescape(s):
        return re.sub(r'\\(.)', r'\1', s)

    m = re.search(r'^\[project\][ \t]*\n(.*?)(?=^\[|\Z)', text, flags=re.M | re.S)
    project = {}
    for key, value in re.findall(r'^([A-Za-z0-9_-]+)\s*=\s*(".*?"|\[.*?\]|\{.*?\})\s*$',
                                 m.group(1) if m else "", flags=re.M | re.S):
        if value.startswith('"'):
            project[key] = unescape(value[1:-1])
        elif value.startswith("["):
            project[key] = [unescape(s) for s in re.findall(string, value)]
        else:
            project[key] = {k: unescape(v) for k, v in re.findall(r'([A-Za-z0-9_-]+)\s*=\s*' +
                                                                  string, value)}
    return project


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        return _toml_project(f.read())


def _names(project):
    """(distribution name as in file names, version, the .dist-info folder)."""
    name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    return name, project["version"], "%s-%s.dist-info" % (name, project["version"])


def _metadata(project):
    lines = ["Metadata-Version: 2.1", "Name: " + project["name"],
             "Version: " + project["version"]]
    if project.get("description"):
        lines.append("Summary: " + project["description"])
    if project.get("requires-python"):
        lines.append("Requires-Python: " + project["requires-python"])
    if isinstance(project.get("license"), dict) and project["license"].get("text"):
        lines.append("License: " + project["license"]["text"])
    lines += ["Classifier: " + c for c in project.get("classifiers", [])]
    body = ""
    if project.get("readme"):
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(HERE, project["readme"]), encoding="utf-8") as f:
            body = "\n" + f.read()
    return ("\n".join(lines) + "\n" + body).encode("utf-8")


def _package_files():
    """(path in the archive, path on disk) of the package: .py files and py.typed."""
    root = os.path.join(HERE, PACKAGE)
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for fn in sorted(files):
            if fn.endswith(".py") or fn == "py.typed":
                path = os.path.join(d, fn)
                found.append((os.path.relpath(path, HERE).replace(os.sep, "/"), path))
    return found


def _epoch():
    return max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)  # >= 1980


def _write_wheel(wheel_directory, project, entries):
    """Writes the wheel of entries [(archive path, bytes)] plus .dist-info; its file name."""
    name, version, dist_info = _names(project)
    entries = entries + [
        (dist_info + "/METADATA", _metadata(project)),
        (dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: gamedb_backend\n"
                                "Root-Is-Purelib: true\nTag: %s\n" % TAG).encode()),
    ]
    record = io.StringIO()
    for arcname, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        record.write("%s,sha256=%s,%d\n" % (arcname, digest.decode(), len(data)))
    record.write(dist_info + "/RECORD,,\n")
    entries.append((dist_info + "/RECORD", record.getvalue().encode()))
    filename = "%s-%s-%s.whl" % (name, version, TAG)
    stamp = time.gmtime(_epoch())[:6]
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for arcname, data in entries:
            info = zipfile.ZipInfo(arcname, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return filename


# ---- the PEP 517 / PEP 660 hooks ---------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project = _project()
    dist_info = _names(project)[2]
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"), "wb") as f:
        f.write(_metadata(project))
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    entries = []
    for arcname, path in _package_files():
        with open(path, "rb") as f:
            entries.append((arcname, f.read()))
    return _write_wheel(wheel_directory, _project(), entries)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """`pip install -e ./python`: a .pth file that puts this folder on sys.path."""
    return _write_wheel(wheel_directory, _project(),
                        [("_gamedb_editable.pth", (HERE + "\n").encode("utf-8"))])


def build_sdist(sdist_directory, config_settings=None):
    """name-version.tar.gz: pyproject.toml, README.md, this backend, the package, PKG-INFO."""
    project = _project()
    name, version, _ = _names(project)
    top = "%s-%s" % (name, version)
    files = [(p, os.path.join(HERE, p)) for p in ("pyproject.toml", project.get("readme"),
                                                 "_build/gamedb_backend.py") if p]
    files += _package_files()
    filename = top + ".tar.gz"

    def add(tar, arcname, data):
        info = tarfile.TarInfo(top + "/" + arcname)
        info.size, info.mtime, info.mode = len(data), _epoch(), 0o644
        tar.addfile(info, io.BytesIO(data))

    with open(os.path.join(sdist_directory, filename), "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=_epoch()) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                for arcname, path in files:
                    with open(path, "rb") as f:
                        add(tar, arcname, f.read())
                add(tar, "PKG-INFO", _metadata(project))
    return filename
