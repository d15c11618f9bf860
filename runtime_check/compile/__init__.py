"""The ``compile`` backend: kernel variants compiled by the real Ascend compiler, no device."""
