"""The runtime companion: replay flagged kernels to confirm findings (``ascend-lint confirm``)."""
