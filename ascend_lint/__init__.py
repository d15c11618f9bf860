"""ascend-lint: static analysis for Triton kernels on Huawei Ascend NPUs."""

from pathlib import Path

__version__ = "0.1.0"

# Installed (wheel or editable), `rules/` and `runtime_check/` are subpackages of ascend_lint.
# In the repository they sit next to this folder; when this source folder is the one imported
# (running from the repository root), let the package path reach them there too.
_HERE = Path(__file__).resolve().parent
if not (_HERE / "rules").is_dir() and (_HERE.parent / "rules" / "__init__.py").is_file():
    __path__.append(str(_HERE.parent))
