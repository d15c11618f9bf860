"""Value replays: the ``interpret`` backend (triton-ascend's interpreter) and ``npu``."""
