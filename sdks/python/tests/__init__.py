# The tests run against the source tree (src/ layout) when the package is not installed.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
