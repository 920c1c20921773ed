"""MEM9xx: `noqa` comments that name mem0lint codes they do not need.

These rules are checked by the engine's suppression pass (mem0lint/suppressions.py), not on
call sites; they live here so `--explain`, the rule table and the example tests cover them.
"""
