"""The package promise: standard library only, importable on Python 3.9+ syntax."""

import ast
import os
import sys
import unittest

PACKAGE = os.path.join(os.path.dirname(__file__), "..", "engram_memory")


class PackageTest(unittest.TestCase):
    def test_imports_only_the_standard_library_and_itself(self) -> None:
        stdlib = set(getattr(sys, "stdlib_module_names", ()))
        if not stdlib:  # Python < 3.10: the list the package actually uses
            stdlib = {"json", "re", "socket", "time", "typing", "urllib", "uuid"}
        files = [f for f in os.listdir(PACKAGE) if f.endswith(".py")]
        self.assertTrue(files)
        for name in files:
            with open(os.path.join(PACKAGE, name), encoding="utf-8") as f:
                tree = ast.parse(f.read(), filename=name, feature_version=(3, 9))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    roots = [a.name.split(".")[0] for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    roots = [(node.module or "").split(".")[0]]
                else:
                    continue
                for root in roots:
                    self.assertIn(root, stdlib, f"{name} imports {root}")


if __name__ == "__main__":
    unittest.main()
