# Lets `python3 -m pytest tests/python` find the in-tree binding without PYTHONPATH.
# The library itself is found through GAMEDB_LIBRARY (meson's test_env sets it).
import os
import sys

_python_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")
if os.path.isdir(_python_dir) and os.path.abspath(_python_dir) not in map(os.path.abspath,
                                                                         sys.path):
    sys.path.insert(0, os.path.abspath(_python_dir))
