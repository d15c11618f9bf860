"""ascend-lint's rules, one module each (installed as `ascend_lint.rules`)."""
