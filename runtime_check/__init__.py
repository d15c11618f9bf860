"""``ascend-lint confirm``: replay flagged kernels and give every finding a verdict.

Layout (imports point down the list, never up):

- ``cli`` — the command: lint, capture, plan, replay, report;
- ``report`` — text / JSON / SARIF output;
- ``backends`` — backend names, availability, and which backend decides a finding (read from
  each rule's ``CONFIRM`` declaration in the registry);
- ``capture/`` — run the workload with launches recorded (the simulated Ascend device lives here);
- ``compile/`` — the ``compile`` backend: the real Ascend compiler, no device;
- ``value/`` — the ``interpret`` and ``npu`` backends: kernels run on values;
- core: ``jobs`` (a finding, its kernel and launches), ``variants`` (kernel source variants),
  ``verdicts`` (outcomes), ``process`` (each replay in a subprocess with a timeout).
"""
