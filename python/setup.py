"""`pip install --no-build-isolation --no-index ./python`: the package plus a copy of the C API
library (libTinygradCAPI.so and libTinygradRuntime.so) from a build tree, so the installed
package works without the source or build tree. The build tree is $TINYGRAD_MLIR_BUILD
(default: the repository's build/); installing fails if its libraries are not built."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIBS = ("libTinygradCAPI.so", "libTinygradRuntime.so")


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        build = os.environ.get("TINYGRAD_MLIR_BUILD", os.path.join(HERE, "..", "build"))
        dest = os.path.join(self.build_lib, "tinygrad_mlir", "_lib")
        os.makedirs(dest, exist_ok=True)
        for name in LIBS:
            src = os.path.join(build, "lib", name)
            if not os.path.isfile(src):
                raise SystemExit(f"tinygrad-mlir: {src} is not built (run `make build`, or set "
                                 "TINYGRAD_MLIR_BUILD to a build tree)")
            # libTinygradCAPI.so finds libTinygradRuntime.so beside it ($ORIGIN in its run path)
            shutil.copy2(src, os.path.join(dest, name))


setup(cmdclass={"build_py": BuildPyWithLibrary})
