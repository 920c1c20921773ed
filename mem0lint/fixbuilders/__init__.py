"""Fix builders that rules call through small hooks (issue 11, class 8: the missing fixes).

Each module builds one kind of fix from what a rule already found; the rule decides whether it
reports, the builder whether (and how safely) the call can be rewritten.
"""
