"""Workload capture: launches recorded from a workload, and the simulated Ascend device."""
