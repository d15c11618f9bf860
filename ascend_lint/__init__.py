"""ascend-lint: static analysis for Triton kernels on Huawei Ascend NPUs."""

__version__ = "0.1.0"
